package dev.waitroom.coordinator.grants.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.grants.SessionRegistry;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.testsupport.LocalRedis;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.redisson.spring.starter.RedissonAutoConfigurationV4;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The live-session registry against a Redis topology chosen by Spring's Redis properties alone, through the same
 * auto-configuration and customizer as the service. Each topology's test class registers its
 * {@link dev.waitroom.testsupport.LocalRedisExtension}, which hands the running set to the tests.
 */
abstract class SessionRegistryTopologyScenarios {

    private static ApplicationContextRunner runner(LocalRedis topology) {
        return new ApplicationContextRunner()
                .withConfiguration(
                        AutoConfigurations.of(DataRedisAutoConfiguration.class, RedissonAutoConfigurationV4.class))
                .withUserConfiguration(SessionRegistryRedisConfiguration.class, RedissonSessionRegistry.class)
                .withPropertyValues(topology.springProperties());
    }

    @Test
    void admitsReleasesAndKeepsTheTombstoneForSessionsOfManyEvents(LocalRedis topology) {
        runner(topology).run(context -> {
            SessionRegistry registry = context.getBean(SessionRegistry.class);
            assertThat(registry.available()).isTrue();
            Instant expires = Instant.now().plus(Duration.ofMinutes(5));
            for (int e = 0; e < 12; e++) {
                EventId event = EventId.of("topo-registry-" + e + "-"
                        + UUID.randomUUID().toString().substring(0, 8));
                SessionId session = SessionId.random();
                assertThat(registry.isLive(event, session)).isFalse();
                assertThat(registry.admit(event, session, 3, expires)).isTrue();
                assertThat(registry.isLive(event, session))
                        .as("read from the primary just written")
                        .isTrue();
                registry.remove(event, session, expires.plus(Duration.ofMinutes(5)));
                assertThat(registry.isLive(event, session)).isFalse();
                assertThat(registry.admit(event, session, 3, expires))
                        .as("a released session stays released")
                        .isFalse();
                assertThat(registry.isLive(event, session)).isFalse();
            }
        });
    }
}
