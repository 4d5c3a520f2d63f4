package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.testsupport.LocalRedisExtension;
import dev.waitroom.testsupport.LocalRedisSentinels;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The gateway's Redis uses on a real Sentinel set ({@code spring.data.redis.sentinel.master/nodes}). */
class EdgeOnRedisSentinelTests extends EdgeRedisTopologyScenarios {

    @RegisterExtension
    static final LocalRedisExtension<LocalRedisSentinels> redis = LocalRedisExtension.sentinels();
}
