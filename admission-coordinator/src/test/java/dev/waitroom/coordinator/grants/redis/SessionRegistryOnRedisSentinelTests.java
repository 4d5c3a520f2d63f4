package dev.waitroom.coordinator.grants.redis;

import dev.waitroom.testsupport.LocalRedisExtension;
import dev.waitroom.testsupport.LocalRedisSentinels;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The registry on a real Sentinel set ({@code spring.data.redis.sentinel.master/nodes}). */
class SessionRegistryOnRedisSentinelTests extends SessionRegistryTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisSentinels> redis = LocalRedisExtension.sentinels();
}
