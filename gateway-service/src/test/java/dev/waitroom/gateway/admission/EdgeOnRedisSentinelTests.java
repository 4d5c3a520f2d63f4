package dev.waitroom.gateway.admission;

import dev.waitroom.testsupport.LocalRedisSentinels;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/** The gateway's Redis uses on a real Sentinel set ({@code spring.data.redis.sentinel.master/nodes}). */
class EdgeOnRedisSentinelTests extends EdgeRedisTopologyScenarios {

	static LocalRedisSentinels sentinels;

	@BeforeAll
	static void startSentinels() {
		sentinels = LocalRedisSentinels.start();
	}

	@AfterAll
	static void stopSentinels() {
		if (sentinels != null) {
			sentinels.close();
		}
	}

	@Override
	String[] redisProperties() {
		return new String[] { "spring.data.redis.sentinel.master=" + LocalRedisSentinels.MASTER,
				"spring.data.redis.sentinel.nodes=" + sentinels.nodes() };
	}

}
