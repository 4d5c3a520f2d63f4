package dev.waitroom.coordinator.support;

import dev.waitroom.testsupport.MutableClock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;

/**
 * The test's hand-moved clock, the in-memory queue side (real Postgres and Redis come from test-support) and the
 * {@link Scenario} that drives them.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestStores {

    @Bean
    @Primary
    MutableClock testClock() {
        return new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    @Bean
    @Primary
    InMemoryQueueDirectory inMemoryQueue() {
        return new InMemoryQueueDirectory();
    }

    @Bean
    Scenario scenario(ApplicationContext context) {
        return new Scenario(context);
    }
}
