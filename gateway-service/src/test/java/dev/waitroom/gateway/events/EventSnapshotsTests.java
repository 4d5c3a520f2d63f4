package dev.waitroom.gateway.events;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.ServiceCredentials;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
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
        return snapshots(
                nowhere,
                ServiceCredentials.generate("gateway").credential(),
                maxEvents,
                Duration.ofSeconds(1),
                Clock.systemUTC());
    }

    /** Snapshots from {@code queue}, refreshed every {@code refresh} (usable for twice as long). */
    static EventSnapshots snapshots(URI queue, String credential, int maxEvents, Duration refresh, Clock clock) {
        EdgeProperties edge = new EdgeProperties(
                false,
                Duration.ofDays(1),
                refresh,
                refresh.multipliedBy(2),
                maxEvents,
                Duration.ofMinutes(30),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                1000,
                new EdgeProperties.RateLimits(new EdgeProperties.Limit(2, 20, 1, 1000)),
                // the snapshot call's budget: no test here waits for it to run out, and on a loaded CI machine one
                // of the stub's thousand answers took longer than half a second (an empty snapshot, a red build)
                Duration.ofSeconds(5),
                Duration.ofMillis(200),
                Duration.ofMinutes(30),
                true);
        return new EventSnapshots(
                new ServicesProperties(queue, queue, queue),
                new SecretsProperties("o", credential, key(), key()),
                edge,
                clock,
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

    /**
     * Issue #28, finding 7: made-up event ids (the queue-service answers 404 for each) once filled the cache to its
     * bound and every event's snapshot was dropped with them; a live event is now neither dropped nor fetched again.
     */
    @Test
    void twentyThousandMadeUpIdsDoNotEvictALiveEventsSnapshot() throws Exception {
        StubUpstreams upstreams = StubUpstreams.get();
        EventId live = new EventId("live-" + UUID.randomUUID().toString().substring(0, 8));
        upstreams.queue.event(live.value());
        EventSnapshots snapshots = snapshots(
                upstreams.queue.uri(),
                StubUpstreams.GATEWAY.credential(),
                10_000,
                Duration.ofHours(1),
                Clock.systemUTC());
        assertThat(snapshots.current(live).block(Duration.ofSeconds(5))).isNotNull();
        ExecutorService pool =
                Executors.newFixedThreadPool(64) /* the calls overlap their round trips to the loopback stub */;
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 20_000; i++) {
                EventId madeUp = new EventId("x" + UUID.randomUUID().toString().substring(0, 18));
                boolean pollLive = i % 100 == 0;
                calls.add(pool.submit(() -> {
                    snapshots.current(madeUp).blockOptional(Duration.ofSeconds(10));
                    if (pollLive) {
                        assertThat(snapshots.current(live).block(Duration.ofSeconds(5)))
                                .isNotNull();
                    }
                }));
            }
            for (Future<?> call : calls) {
                call.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(snapshots.current(live).block(Duration.ofSeconds(5))).isNotNull();
        assertThat(upstreams.queue.countReceived(snapshotPath(live))).isEqualTo(1);
    }

    /**
     * With the cache full of real events, the ones asked about least make room, never all at once: an event polled
     * throughout keeps its snapshot while a thousand others pass through a cache of a hundred.
     */
    @Test
    void aFullCacheDropsTheEventsAskedAboutLeastNotEveryEvent() throws Exception {
        StubUpstreams upstreams = StubUpstreams.get();
        String prefix = "lru-" + UUID.randomUUID().toString().substring(0, 8);
        EventId live = new EventId(prefix + "-live");
        upstreams.queue.event(live.value());
        EventSnapshots snapshots = snapshots(
                upstreams.queue.uri(), StubUpstreams.GATEWAY.credential(), 100, Duration.ofHours(1), Clock.systemUTC());
        for (int i = 0; i < 1_000; i++) {
            EventId passing = new EventId(prefix + "-" + i);
            upstreams.queue.event(passing.value());
            assertThat(snapshots.current(passing).block(Duration.ofSeconds(5))).isNotNull();
            if (i % 10 == 0) {
                assertThat(snapshots.current(live).block(Duration.ofSeconds(5))).isNotNull();
            }
        }
        assertThat(upstreams.queue.countReceived(snapshotPath(live))).isEqualTo(1);
        assertThat(snapshots.eventsKept()).isLessThanOrEqualTo(100);
    }

    /**
     * Issue #28, finding 7: an id the queue-service does not know cost a call every refresh interval however often it
     * was asked; now one call per id per {@value EventSnapshots#UNKNOWN_FOR_SECONDS} s, and after that it is asked
     * again (an event created meanwhile is found).
     */
    @Test
    void anUnknownEventAskedAHundredTimesCostsOneCall() {
        StubUpstreams upstreams = StubUpstreams.get();
        EventId unknown = new EventId("unknown-" + UUID.randomUUID().toString().substring(0, 8));
        SteppingClock clock = new SteppingClock();
        EventSnapshots snapshots = snapshots(
                upstreams.queue.uri(), StubUpstreams.GATEWAY.credential(), 1_000, Duration.ofMillis(100), clock);
        for (int i = 0; i < 100; i++) {
            assertThat(snapshots.current(unknown).blockOptional(Duration.ofSeconds(5)))
                    .isEmpty();
            assertThat(snapshots.isUnknown(unknown)).isTrue();
            clock.advance(
                    Duration.ofMillis(40)); // 4 s in all: forty refresh intervals, inside the negative entry's life
        }
        assertThat(upstreams.queue.countReceived(snapshotPath(unknown))).isEqualTo(1);

        clock.advance(Duration.ofSeconds(EventSnapshots.UNKNOWN_FOR_SECONDS));
        assertThat(snapshots.isUnknown(unknown)).isFalse();
        upstreams.queue.event(unknown.value());
        assertThat(snapshots.current(unknown).block(Duration.ofSeconds(5))).isNotNull();
        assertThat(upstreams.queue.countReceived(snapshotPath(unknown))).isEqualTo(2);
    }

    private static String snapshotPath(EventId event) {
        return "/internal/events/" + event.value() + "/snapshot";
    }

    /** A clock the test moves forward. */
    static final class SteppingClock extends Clock {

        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration by) {
            now = now.plus(by);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
