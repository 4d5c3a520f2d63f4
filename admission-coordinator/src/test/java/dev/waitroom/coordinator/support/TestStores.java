package dev.waitroom.coordinator.support;

import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.http.RestClientQueueDirectory;
import dev.waitroom.testsupport.MutableClock;
import dev.waitroom.testsupport.queue.FakeQueueService;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.web.client.RestClient;

/**
 * The test's hand-moved clock, the queue side (test-support's {@link FakeQueueService}, one per test JVM, reached
 * through the coordinator's own HTTP adapter; real Postgres and Redis come from test-support) and the
 * {@link Scenario} that drives them.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestStores {

    @Bean
    @Primary
    MutableClock testClock() {
        return new MutableClock(Instant.now().truncatedTo(ChronoUnit.SECONDS));
    }

    /** Shared by every context of the JVM: a context that closes leaves it running. */
    @Bean(destroyMethod = "")
    FakeQueueService fakeQueue() {
        return FakeQueueService.shared();
    }

    /** The coordinator's queue client, as the application builds it, pointed at the fake with its credential. */
    @Bean
    @Primary
    QueueDirectory fakeQueueDirectory(RestClient.Builder builder, FakeQueueService fake) {
        return RestClientQueueDirectory.of(
                builder,
                fake.uri().toString(),
                fake.coordinatorCredential(),
                Duration.ofMillis(500),
                Duration.ofSeconds(2));
    }

    @Bean
    Scenario scenario(ApplicationContext context) {
        return new Scenario(context);
    }
}
