package dev.waitroom.gateway.status;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.ratelimit.LocalTokenBuckets;
import dev.waitroom.tokens.VisitorId;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Prints the heap the edge's per-visitor state takes with 500,000 distinct visitors polling (not a
 * test: Surefire runs it only when named):
 * {@code ./mvnw -q -o -pl gateway-service -am verify -Dtest=EdgeMemoryBenchmark -Dsurefire.failIfNoSpecifiedTests=false}.
 * The state is the status rate-limit buckets and the liveness batches (pending entries and the
 * "reported within the interval" cache), built with the production bounds; each is filled with
 * 500,000 visitors of one event and must stay within its bound.
 */
class EdgeMemoryBenchmark {

	static final int VISITORS = Integer.getInteger("bench.visitors", 500_000);

	@Test
	void perVisitorStateStaysBoundedAndSmall() {
		EdgeProperties.Limit limit = new EdgeProperties.Limit(2, 20, 1, 500_000);
		URI nowhere = URI.create("http://127.0.0.1:9");
		EdgeProperties edge = new EdgeProperties(false, Duration.ofDays(7), Duration.ofSeconds(1), Duration.ofSeconds(2),
				10_000, Duration.ofMinutes(30), Duration.ofSeconds(1), Duration.ofSeconds(30), 200_000,
				new EdgeProperties.RateLimits(limit), Duration.ofSeconds(2), Duration.ofMillis(500),
				Duration.ofMinutes(30), true);
		String key = java.util.Base64.getEncoder().encodeToString(new byte[32]);
		SecretsProperties secrets = new SecretsProperties("ops-token-for-a-benchmark", "internal-token-for-a-benchmark",
				key, key);
		VisitorId[] visitors = new VisitorId[VISITORS];
		for (int i = 0; i < VISITORS; i++) {
			visitors[i] = VisitorId.random();
		}
		long before = usedHeap();
		LocalTokenBuckets buckets = new LocalTokenBuckets(limit.replenishRate(), limit.burstCapacity(),
				limit.maxVisitors(), System::nanoTime);
		LivenessBatches liveness = new LivenessBatches(new ServicesProperties(nowhere, nowhere, nowhere), secrets, edge,
				Clock.systemUTC(), new SimpleMeterRegistry());
		EventId event = new EventId("bench");
		for (int i = 0; i < VISITORS; i++) {
			buckets.tryTake(visitors[i].value(), 1);
			liveness.seen(event, Long.toString(i + 1L, 36), visitors[i]);
		}
		long after = usedHeap();
		assertThat(buckets.size()).isLessThanOrEqualTo(limit.maxVisitors());
		assertThat(liveness.pending()).isLessThanOrEqualTo(edge.livenessMaxPending());
		System.out.printf("edge state for %,d visitors: %,d bytes of heap (%.0f B per visitor); buckets %,d, "
				+ "liveness pending %,d (bound %,d)%n", VISITORS, after - before, (after - before) / (double) VISITORS,
				buckets.size(), liveness.pending(), edge.livenessMaxPending());
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
