package dev.waitroom.queue.config;

import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicketCodec;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import java.time.Clock;
import org.redisson.config.ReadMode;
import org.redisson.spring.starter.RedissonAutoConfigurationCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Beans shared by the features: clock, ticket codec, Redis client tuning, OpenAPI description. */
@Configuration(proxyBeanMethods = false)
class QueueConfiguration {

    @Bean
    Clock clock() {
        return Clock.systemUTC();
    }

    @Bean
    QueueTicketCodec queueTicketCodec(SecurityProperties security) {
        try {
            return QueueTicketCodec.of(HmacKey.fromBase64(security.ticketKey()));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(
                    "waitroom.security.ticket-key must be base64 of at least 32 random bytes", e);
        }
    }

    /**
     * Fail fast instead of retrying for seconds: a visitor gets a quick 503 while Redis is away. The topology (one
     * server, {@code spring.data.redis.sentinel.*} or {@code spring.data.redis.cluster.nodes}) is read from Spring's
     * Redis properties by the Redisson starter; reads go to the primary, which alone has every acknowledged change.
     */
    @Bean
    RedissonAutoConfigurationCustomizer queueRedisTuning(QueueProperties properties) {
        return config -> {
            int timeout = (int) properties.redisTimeout().toMillis();
            if (config.isSentinelConfig()) {
                config.useSentinelServers()
                        .setReadMode(ReadMode.MASTER)
                        .setRetryAttempts(properties.redisRetryAttempts())
                        .setTimeout(timeout)
                        .setConnectTimeout(timeout);
            } else if (config.isClusterConfig()) {
                config.useClusterServers()
                        .setReadMode(ReadMode.MASTER)
                        .setRetryAttempts(properties.redisRetryAttempts())
                        .setTimeout(timeout)
                        .setConnectTimeout(timeout);
            } else if (config.isSingleConfig()) {
                config.useSingleServer()
                        .setRetryAttempts(properties.redisRetryAttempts())
                        .setTimeout(timeout)
                        .setConnectTimeout(timeout);
            }
        };
    }

    @Bean
    OpenAPI queueServiceOpenApi() {
        return new OpenAPI()
                .info(new Info()
                        .title("Waitroom queue-service")
                        .description(
                                "Visitor routes (forwarded by the gateway) and the internal API for the coordinator and "
                                        + "the gateway. Every call needs header X-Waitroom-Internal.")
                        .version("1"));
    }
}
