package dev.waitroom.queue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.testsupport.BenchmarkRun;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Prints joins/s and status/s against the service over HTTP on loopback, and Redis bytes per waiting visitor at
 * 200,000 entries, as BENCH lines (docs/BENCHMARKS.md). Not part of the normal build:
 * {@code ./mvnw -o -pl queue-service verify -Pbenchmark}. Figures, never assertions on time.
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
        // warm-up, unmeasured: JIT, connection pools, script cache
        String warm = client.newEvent("bench-warm", "OPEN");
        BenchmarkRun.calls(
                "queue.warm-up",
                CLIENT_THREADS,
                2_000,
                i -> client.join(warm, VisitorId.random().value()));
        client.join(warm, visitors[0]);
        BenchmarkRun.calls("queue.warm-up", CLIENT_THREADS, 2_000, i -> client.status(warm, visitors[0]));

        BenchmarkRun.calls(
                        "queue.join",
                        CLIENT_THREADS,
                        HTTP_JOINS,
                        i -> assertThat(client.join(event, visitors[i]).status())
                                .isEqualTo(201))
                .print();
        BenchmarkRun.calls(
                        "queue.status",
                        CLIENT_THREADS,
                        STATUS_POLLS,
                        i -> assertThat(client.status(event, visitors[i % visitors.length])
                                        .status())
                                .isEqualTo(200))
                .print();
    }

    @Test
    void redisBytesPerWaitingVisitor() throws Exception {
        EventId event = new EventId(QueueClient.newEventId("bench-memory"));
        client.putEvent(event.value(), "OPEN", null);
        try (RedisProbe redis = new RedisProbe(RealStores.redisHost(), RealStores.redisPort())) {
            long before = redis.usedMemory();
            BenchmarkRun.calls(
                    "queue.memory-fill",
                    16,
                    MEMORY_ENTRIES,
                    i -> store.join(event, new Visitor(VisitorId.random(), null), Duration.ofSeconds(30)));
            long after = redis.usedMemory();
            long[] usage = redis.memoryUsageOf(
                    RedisKeys.eventPrefix(event).replace("{", "\\{").replace("}", "\\}") + "*");
            BenchmarkFigures.named("queue.memory")
                    .add("entries", MEMORY_ENTRIES)
                    .add(
                            "used_memory_bytes_per_visitor",
                            String.format("%.1f", (after - before) / (double) MEMORY_ENTRIES))
                    .add("memory_usage_bytes_per_visitor", String.format("%.1f", usage[0] / (double) MEMORY_ENTRIES))
                    .add("keys", usage[1])
                    .print();
        }
    }
}
