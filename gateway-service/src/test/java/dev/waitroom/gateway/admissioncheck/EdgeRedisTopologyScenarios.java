package dev.waitroom.gateway.admissioncheck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.testsupport.LocalRedis;
import dev.waitroom.tokens.AdmissionClaims;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.scripting.support.ResourceScriptSource;

/**
 * The gateway's Redis uses (the live-session registry the coordinator writes, Spring Cloud Gateway's rate limiter
 * script) against a topology chosen by Spring's Redis properties alone: Boot's Lettuce auto-configuration, unchanged.
 * Each topology's test class registers its {@link dev.waitroom.testsupport.LocalRedisExtension}, which hands the
 * running set to the tests.
 */
abstract class EdgeRedisTopologyScenarios {

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties(EdgeProperties.class)
    static class Edge {

        @Bean
        Clock clock() {
            return Clock.systemUTC();
        }

        @Bean(RedisRateLimiter.REDIS_SCRIPT_NAME)
        @SuppressWarnings({"unchecked", "rawtypes"})
        RedisScript<List<Long>> redisRequestRateLimiterScript() {
            DefaultRedisScript script = new DefaultRedisScript<>();
            script.setScriptSource(
                    new ResourceScriptSource(new ClassPathResource("META-INF/scripts/request_rate_limiter.lua")));
            script.setResultType(List.class);
            return script;
        }
    }

    private static ApplicationContextRunner runner(LocalRedis topology) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        DataRedisAutoConfiguration.class, DataRedisReactiveAutoConfiguration.class))
                .withUserConfiguration(Edge.class, SessionRegistry.class)
                .withPropertyValues(topology.springProperties());
    }

    @Test
    void readsTheCoordinatorsLiveSessionsOfManyEvents(LocalRedis topology) {
        runner(topology).run(context -> {
            SessionRegistry registry = context.getBean(SessionRegistry.class);
            ReactiveStringRedisTemplate redis = context.getBean(ReactiveStringRedisTemplate.class);
            for (int e = 0; e < 12; e++) {
                String event =
                        "topo-edge-" + e + "-" + UUID.randomUUID().toString().substring(0, 8);
                String session = UUID.randomUUID().toString();
                AdmissionClaims claims = new AdmissionClaims(
                        event,
                        4,
                        "grant-" + e,
                        session,
                        "visitor-" + e,
                        Instant.now(),
                        Instant.now().plus(Duration.ofMinutes(5)),
                        UUID.randomUUID().toString());
                assertThat(registry.liveness(claims).block()).isEqualTo(Liveness.ENDED);
                redis.opsForValue()
                        .set(SessionRegistry.key(event, session), "4")
                        .block();
                assertThat(registry.liveness(claims).block()).isEqualTo(Liveness.LIVE);
                redis.opsForValue()
                        .set(SessionRegistry.key(event, session), "5")
                        .block();
                assertThat(registry.liveness(claims).block())
                        .as("another sale generation")
                        .isEqualTo(Liveness.ENDED);
            }
        });
    }

    @Test
    void rateLimiterScriptRunsOnTheSlotOfItsHashTaggedKeys(LocalRedis topology) {
        runner(topology).run(context -> {
            // three requests of 10 tokens empty a bucket of 30; the 1 token a second it refills can't pay for a
            // fourth even when a second boundary falls between them (the script counts whole seconds)
            RedisRateLimiter limiter = new RedisRateLimiter(1, 30, 10);
            limiter.setApplicationContext(context);
            for (int v = 0; v < 6; v++) {
                String visitor = "visitor-" + v + "-" + UUID.randomUUID();
                for (int i = 0; i < 3; i++) {
                    assertThat(limiter.isAllowed("status", visitor).block().isAllowed())
                            .as("burst %d", i)
                            .isTrue();
                }
                assertThat(limiter.isAllowed("status", visitor).block().isAllowed())
                        .as("over the burst")
                        .isFalse();
            }
        });
    }
}
