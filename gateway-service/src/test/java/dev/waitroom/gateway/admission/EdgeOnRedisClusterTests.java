package dev.waitroom.gateway.admission;

import dev.waitroom.testsupport.LocalRedisCluster;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The gateway's Redis uses on a real three-master Redis Cluster ({@code spring.data.redis.cluster.nodes}). */
class EdgeOnRedisClusterTests extends EdgeRedisTopologyScenarios {

	static LocalRedisCluster cluster;

	@BeforeAll
	static void startCluster() {
		cluster = LocalRedisCluster.start();
	}

	@AfterAll
	static void stopCluster() {
		if (cluster != null) {
			cluster.close();
		}
	}

	@Override
	String[] redisProperties() {
		return new String[] { "spring.data.redis.cluster.nodes=" + cluster.nodes() };
	}

}
