package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Figures, not assertions on time: fenced allocations per second on Postgres and claim latency over real HTTP.
 * Run: ./mvnw -o -pl admission-coordinator -am verify -Pbenchmark -Dtest=CoordinatorBenchmarkTests
 * -Dsurefire.failIfNoSpecifiedTests=false
 */
@Tag("benchmark")
@CoordinatorTest
class CoordinatorBenchmarkTests {

    /** Entry ids of the candidates made by hand, unique in the JVM as the queue's are in an event. */
    private static final AtomicLong ENTRIES = new AtomicLong();

    @Autowired
    Scenario scenario;

    @Autowired
    Leases leases;

    @Test
    void fencedAllocationsPerSecond() throws Exception {
        for (int threads : new int[] {1, 4}) {
            for (int batch : new int[] {1, 10}) {
                String eventId = this.scenario.openNewEvent(
                        "bench-alloc",
                        Scenario.config(
                                100_000, 1000, 1000, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
                FencingGeneration gen = this.leases
                        .acquireOrRenew(EventId.of(eventId), "bench", Duration.ofSeconds(5))
                        .orElseThrow();
                int transactionsPerThread = threads == 1 ? 2000 : 600;
                allocate(eventId, gen, 1, 200, batch); // warm-up
                this.leases.acquireOrRenew(EventId.of(eventId), "bench", Duration.ofSeconds(5));
                long start = System.nanoTime();
                int made = allocate(eventId, gen, threads, transactionsPerThread, batch);
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf(
                        "BENCHMARK fenced allocation: %d thread(s), batch %d: %.0f allocation transactions/s, %.0f offers/s (%d offers in %.2f s)%n",
                        threads, batch, threads * transactionsPerThread / seconds, made / seconds, made, seconds);
                assertThat(made).isEqualTo(threads * transactionsPerThread * batch);
            }
        }
    }

    private int allocate(String eventId, FencingGeneration gen, int threads, int perThread, int batch)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger made = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < perThread; i++) {
                    if (i % 200 == 199) {
                        // Keep the lease, and keep live grants near a realistic ceiling (about 1000): offers expire.
                        this.leases.acquireOrRenew(EventId.of(eventId), "bench", Duration.ofSeconds(5));
                        this.scenario.grants.expireOffers(
                                EventId.of(eventId), this.scenario.now().plusSeconds(31));
                    }
                    List<Candidate> candidates = new ArrayList<>();
                    for (int b = 0; b < batch; b++) {
                        candidates.add(
                                new Candidate(EntryId.ofSequence(ENTRIES.incrementAndGet()), VisitorId.random(), i));
                    }
                    List<Grant> inserted = this.scenario.grants.allocate(
                            Region.CENTRAL,
                            EventId.of(eventId),
                            "bench",
                            gen,
                            candidates,
                            this.scenario.now(),
                            this.scenario.now().plusSeconds(30));
                    made.addAndGet(inserted.size());
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        return made.get();
    }

    @Test
    void claimLatency() throws Exception {
        Scenario scenario = this.scenario;
        int visitors = 1500;
        String eventId = scenario.openNewEvent(
                "bench-claim",
                Scenario.config(visitors, 1000, 1000, 600, 600, 1200, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
        List<String> ids = scenario.join(eventId, visitors);
        for (int i = 0; i < 10 && scenario.grants.count(EventId.of(eventId)).offered() < visitors; i++) {
            scenario.tick(eventId, Duration.ofSeconds(2));
        }
        assertThat(scenario.grants.count(EventId.of(eventId)).offered()).isEqualTo(visitors);
        Http http = scenario.http();
        for (int i = 0; i < 100; i++) { // warm-up: repeat claims
            http.post("/events/" + eventId + "/admission/claim", null, Headers.VISITOR, ids.get(i));
        }
        int threads = 8;
        List<Long> latencies = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        AtomicInteger next = new AtomicInteger(100);
        long start = System.nanoTime();
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            done.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < visitors; i = next.getAndIncrement()) {
                    long s = System.nanoTime();
                    Http.Response r =
                            http.post("/events/" + eventId + "/admission/claim", null, Headers.VISITOR, ids.get(i));
                    latencies.add(System.nanoTime() - s);
                    assertThat(r.status()).isEqualTo(200);
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        List<Long> sorted = new ArrayList<>(latencies);
        Collections.sort(sorted);
        System.out.printf(
                "BENCHMARK claim (first claims, %d threads, HTTP + Postgres + Redis + Ed25519): %.0f claims/s, "
                        + "p50 %.1f ms, p99 %.1f ms, max %.1f ms over %d claims%n",
                threads,
                sorted.size() / seconds,
                sorted.get(sorted.size() / 2) / 1e6,
                sorted.get((int) (sorted.size() * 0.99)) / 1e6,
                sorted.get(sorted.size() - 1) / 1e6,
                sorted.size());
        assertThat(scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(visitors);
    }
}
