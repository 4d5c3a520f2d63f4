package dev.waitroom.booking;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Not a test (the name does not end in Tests, so Surefire skips it): prints shop throughput over real HTTP and real
 * Postgres. Run with {@code ./mvnw -q -o -pl booking-service -am verify -Dtest=HoldThroughputBenchmark
 * -Dsurefire.failIfNoSpecifiedTests=false}.
 */
class HoldThroughputBenchmark extends ShopTestSupport {

    private static final int THREADS = 16;

    @Test
    void holdAndCheckoutThroughput() throws Exception {
        // Warm-up, then the measured runs.
        run("warmup", 400, 400, false);
        run("distinct seats, hold only", 2000, 2000, false);
        run("distinct seats, hold + order", 1000, 1000, true);
        run("contended: 2000 holds on 50 seats", 2000, 50, false);
    }

    private void run(String name, int holds, int seats, boolean order) throws Exception {
        String event = newEvent("bench", seats);
        AtomicInteger next = new AtomicInteger();
        long[] latenciesNanos = new long[holds];
        AtomicInteger created = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long start = System.nanoTime();
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            futures.add(pool.submit(() -> {
                for (int i = next.getAndIncrement(); i < holds; i = next.getAndIncrement()) {
                    TestShopper shopper = shopper(event);
                    long begin = System.nanoTime();
                    Response held = hold(shopper, "A-" + (1 + i % seats));
                    if (held.status() == 201 && order) {
                        order(shopper, held.text("holdId"));
                    }
                    latenciesNanos[i] = System.nanoTime() - begin;
                    switch (held.status()) {
                        case 201 -> created.incrementAndGet();
                        case 409 -> conflicts.incrementAndGet();
                        default -> other.incrementAndGet();
                    }
                }
            }));
        }
        for (Future<?> future : futures) {
            future.get();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        pool.shutdown();
        pool.awaitTermination(10, TimeUnit.SECONDS);
        Arrays.sort(latenciesNanos);
        System.out.printf("BENCH %-36s %5d requests in %6.2f s = %7.1f /s  p50 %6.1f ms  p99 %6.1f ms  "
                        + "created %d  conflicts %d  other %d%n",
                name, holds, seconds, holds / seconds, latenciesNanos[holds / 2] / 1e6,
                latenciesNanos[(int) (holds * 0.99)] / 1e6, created.get(), conflicts.get(), other.get());
        assertThat(other.get()).isZero();
        assertThat(created.get()).isLessThanOrEqualTo(seats);
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'HELD'", event))
                .isEqualTo(created.get());
    }
}
