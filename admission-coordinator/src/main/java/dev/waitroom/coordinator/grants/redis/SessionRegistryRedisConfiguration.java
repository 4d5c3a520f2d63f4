package dev.waitroom.coordinator.grants.redis;

import org.redisson.config.ReadMode;
import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The registry's Redis client. The Redisson starter reads the topology from Spring's Redis properties (one server,
 * {@code spring.data.redis.sentinel.master/nodes} or {@code spring.data.redis.cluster.nodes}); here only its reads
 * are sent to the primary, since a replica may not have the admit or release that was just written.
 */
@Configuration(proxyBeanMethods = false)
class SessionRegistryRedisConfiguration {

    @Bean
    RedissonAutoConfigurationCustomizer sessionRegistryReadsFromPrimary() {
        return config -> {
            if (config.isSentinelConfig()) {
                config.useSentinelServers().setReadMode(ReadMode.MASTER);
            } else if (config.isClusterConfig()) {
                config.useClusterServers().setReadMode(ReadMode.MASTER);
            }
        };
    }
}
