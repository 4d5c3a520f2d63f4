package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.queue.QueueClient.Reply;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Prints joins/s and status/s against the service over HTTP on loopback, and Redis bytes per waiting visitor at
 * 200,000 entries. Not part of the normal build: {@code ./mvnw -o -pl queue-service -am verify -Pbench}.
 * Figures, never assertions on time.
 */
@Tag("benchmark")
@QueueServiceTest
class QueueBenchmarkTests {

    static final int CLIENT_THREADS = Integer.getInteger("bench.threads", 32);
    static final int HTTP_JOINS = Integer.getInteger("bench.joins", 20_000);
    static final int STATUS_POLLS = Integer.getInteger("bench.polls", 40_000);
    static final int MEMORY_ENTRIES = Integer.getInteger("bench.memoryEntries", 200_000);

    private final QueueClient client;

    QueueBenchmarkTests(QueueClient client) {
        this.client = client;
    }

    @Autowired
    JoinStore store;

    @Test
    void joinsAndStatusOverHttp() throws Exception {
        String event = client.newEvent("bench-http", "OPEN");
        String[] visitors = new String[HTTP_JOINS];
        for (int i = 0; i < visitors.length; i++) {
            visitors[i] = VisitorId.random().value();
        }
        // warm-up: JIT, connection pools, script cache
        String warm = client.newEvent("bench-warm", "OPEN");
        run(2_000, i -> client.join(warm, VisitorId.random().value()));
        client.join(warm, visitors[0]);
        run(2_000, i -> client.status(warm, visitors[0]));

        long[] joinNanos = run(HTTP_JOINS, i -> {
            Reply r = client.join(event, visitors[i]);
            assertThat(r.status()).isEqualTo(201);
            return r;
        });
        report("joins", joinNanos);
        long[] statusNanos = run(STATUS_POLLS, i -> {
            Reply r = client.status(event, visitors[i % visitors.length]);
            assertThat(r.status()).isEqualTo(200);
            return r;
        });
        report("status", statusNanos);
    }

    @Test
    void redisBytesPerWaitingVisitor() throws Exception {
        EventId event = new EventId(QueueClient.newEventId("bench-memory"));
        client.putEvent(event.value(), "OPEN", null);
        try (RedisProbe redis = new RedisProbe(RealStores.redisHost(), RealStores.redisPort())) {
            long before = redis.usedMemory();
            AtomicInteger next = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(16);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 16; t++) {
                futures.add(pool.submit(() -> {
                    while (next.getAndIncrement() < MEMORY_ENTRIES) {
                        store.join(event, new Visitor(VisitorId.random(), null), java.time.Duration.ofSeconds(30));
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            pool.shutdown();
            long after = redis.usedMemory();
            long[] usage = redis.memoryUsageOf(RedisKeys.eventPrefix(event).replace("{", "\\{").replace("}", "\\}") + "*");
            System.out.printf("BENCH memory: %d waiting entries, INFO used_memory delta %.1f bytes/visitor, "
                    + "MEMORY USAGE sum %.1f bytes/visitor over %d keys%n", MEMORY_ENTRIES,
                    (after - before) / (double) MEMORY_ENTRIES, usage[0] / (double) MEMORY_ENTRIES, usage[1]);
        }
    }

    private static void report(String what, long[] nanos) {
        long total = nanos[nanos.length - 1];
        long[] latencies = Arrays.copyOf(nanos, nanos.length - 1);
        Arrays.sort(latencies);
        System.out.printf("BENCH %s: %d requests, %d client threads, %.0f requests/s, p50 %.2f ms, p99 %.2f ms%n", what,
                latencies.length, CLIENT_THREADS, latencies.length / (total / 1e9),
                latencies[latencies.length / 2] / 1e6, latencies[(int) (latencies.length * 0.99)] / 1e6);
    }

    /** Runs n calls on the client threads; returns each call's latency and, last, the total elapsed time. */
    private static long[] run(int n, JoinTests.IndexedCall<?> call) throws Exception {
        long[] out = new long[n + 1];
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENT_THREADS);
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < CLIENT_THREADS; t++) {
            futures.add(pool.submit(() -> {
                int i;
                while ((i = next.getAndIncrement()) < n) {
                    long s = System.nanoTime();
                    call.call(i);
                    out[i] = System.nanoTime() - s;
                }
                return null;
            }));
        }
        for (Future<?> f : futures) {
            f.get();
        }
        out[n] = System.nanoTime() - start;
        pool.shutdown();
        return out;
    }
}
