package dev.waitroom.gateway.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.testsupport.ServiceCredentials;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class EventSnapshotsTests {

    static String key() {
        return Base64.getEncoder().encodeToString(new byte[32]).replace('A', 'k');
    }

    static EventSnapshots snapshots(int maxEvents) throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }
        URI nowhere = URI.create("http://127.0.0.1:" + closedPort);
        EdgeProperties edge = new EdgeProperties(
                false,
                Duration.ofDays(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                maxEvents,
                Duration.ofMinutes(30),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                1000,
                new EdgeProperties.RateLimits(new EdgeProperties.Limit(2, 20, 1, 1000)),
                Duration.ofMillis(500),
                Duration.ofMillis(200),
                Duration.ofMinutes(30),
                true);
        return new EventSnapshots(
                new ServicesProperties(nowhere, nowhere, nowhere),
                new SecretsProperties(
                        "o", ServiceCredentials.generate("gateway").credential(), key(), key()),
                edge,
                Clock.systemUTC(),
                new SimpleMeterRegistry(),
                ObservationRegistry.NOOP);
    }

    @Test
    void keepsABoundedNumberOfEventsEvenUnderConcurrentFirstRequests() throws Exception {
        EventSnapshots snapshots = snapshots(50);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                EventId id = new EventId("e-" + i);
                calls.add(pool.submit(() -> snapshots.current(id).block(Duration.ofSeconds(5))));
            }
            for (Future<?> call : calls) {
                call.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(snapshots.eventsKept()).isLessThanOrEqualTo(50 + 8);
    }

    @Test
    void anUnreachableQueueServiceYieldsNoSnapshotRatherThanAnError() throws Exception {
        EventSnapshots snapshots = snapshots(10);
        assertThat(snapshots.current(new EventId("e")).blockOptional(Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(snapshots.latest(new EventId("e")).blockOptional(Duration.ofSeconds(5)))
                .isEmpty();
    }
}
