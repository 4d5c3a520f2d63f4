package dev.waitroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.buckets.LocalTokenBuckets;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Prints the heap the edge's per-visitor state takes with 500,000 distinct visitors polling, as a
 * {@code BENCH} line (docs/BENCHMARKS.md); not part of the normal build:
 * {@code ./mvnw -o -pl gateway-service verify -Pbenchmark -Dtest=EdgeMemoryBenchmarkTests}.
 * The state is the status rate-limit buckets and the liveness batches (pending entries and the
 * "reported within the interval" cache), built with the production bounds; each is filled with
 * 500,000 visitors of one event and must stay within its bound.
 */
@Tag("benchmark")
class EdgeMemoryBenchmarkTests {

    static final int VISITORS = Integer.getInteger("bench.visitors", 500_000);

    @Test
    void perVisitorStateStaysBoundedAndSmall() {
        EdgeProperties.Limit limit = new EdgeProperties.Limit(2, 20, 1, 500_000);
        URI nowhere = URI.create("http://127.0.0.1:9");
        EdgeProperties edge = new EdgeProperties(
                false,
                Duration.ofDays(7),
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                10_000,
                Duration.ofMinutes(30),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                200_000,
                new EdgeProperties.RateLimits(limit),
                Duration.ofSeconds(2),
                Duration.ofMillis(500),
                Duration.ofMinutes(30),
                true);
        String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
        SecretsProperties secrets = new SecretsProperties(
                "ops-token-for-a-benchmark",
                ServiceCredentials.generate("gateway").credential(),
                key,
                key);
        VisitorId[] visitors = new VisitorId[VISITORS];
        for (int i = 0; i < VISITORS; i++) {
            visitors[i] = VisitorId.random();
        }
        long before = usedHeap();
        LocalTokenBuckets buckets = new LocalTokenBuckets(
                limit.replenishRate(), limit.burstCapacity(), limit.maxVisitors(), System::nanoTime);
        LivenessBatches liveness = new LivenessBatches(
                new ServicesProperties(nowhere, nowhere, nowhere),
                secrets,
                edge,
                Clock.systemUTC(),
                new SimpleMeterRegistry(),
                ObservationRegistry.NOOP);
        EventId event = new EventId("bench");
        for (int i = 0; i < VISITORS; i++) {
            buckets.tryTake(visitors[i].value(), 1);
            liveness.seen(event, Long.toString(i + 1L, 36), visitors[i]);
        }
        long after = usedHeap();
        assertThat(buckets.size()).isLessThanOrEqualTo(limit.maxVisitors());
        assertThat(liveness.pending()).isLessThanOrEqualTo(edge.livenessMaxPending());
        BenchmarkFigures.named("gateway.edge.memory")
                .add("visitors", VISITORS)
                .add("heap_bytes", after - before)
                .add("bytes_per_visitor", (after - before) / (double) VISITORS)
                .add("buckets", buckets.size())
                .add("liveness_pending", liveness.pending())
                .add("liveness_bound", edge.livenessMaxPending())
                .print();
    }

    private static long usedHeap() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
