package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.testsupport.LocalRedisCluster;
import dev.waitroom.testsupport.LocalRedisExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gateway's Redis uses on a real three-master Redis Cluster ({@code spring.data.redis.cluster.nodes}). */
class EdgeOnRedisClusterTests extends EdgeRedisTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisCluster> redis = LocalRedisExtension.cluster();
}
