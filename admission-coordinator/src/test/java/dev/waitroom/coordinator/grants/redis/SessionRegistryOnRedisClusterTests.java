package dev.waitroom.coordinator.grants.redis;

import dev.waitroom.testsupport.LocalRedisCluster;
import dev.waitroom.testsupport.LocalRedisExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The registry on a real three-master Redis Cluster ({@code spring.data.redis.cluster.nodes}). */
class SessionRegistryOnRedisClusterTests extends SessionRegistryTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisCluster> redis = LocalRedisExtension.cluster();
}
