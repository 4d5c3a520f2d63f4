package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.BenchmarkFigures;
import dev.waitroom.testsupport.BenchmarkRun;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Prints shop throughput over real HTTP and real Postgres as {@code BENCH} lines (docs/BENCHMARKS.md): holds on
 * distinct seats, hold and order, and holds contending for few seats. Figures, never assertions on time; not part of
 * the normal build: {@code ./mvnw -o -pl booking-service verify -Pbenchmark}.
 */
@Tag("benchmark")
class HoldThroughputBenchmarkTests extends ShopTestSupport {

    private static final int THREADS = 16;

    @Test
    void holdAndCheckoutThroughput() throws Exception {
        run("booking.warm-up", 400, 400, false); // unmeasured: JIT, connection pools
        run("booking.hold.distinct", 2000, 2000, false).print();
        run("booking.hold-order.distinct", 1000, 1000, true).print();
        run("booking.hold.contended", 2000, 50, false).print();
    }

    /** {@code holds} holds by as many shoppers on {@code seats} seats, each timed with its order when {@code order}. */
    private BenchmarkFigures run(String name, int holds, int seats, boolean order) throws Exception {
        String event = newEvent("bench", seats);
        TestShopper[] shoppers = new TestShopper[holds];
        for (int i = 0; i < holds; i++) {
            shoppers[i] = shopper(event);
        }
        AtomicInteger created = new AtomicInteger();
        AtomicInteger conflicts = new AtomicInteger();
        AtomicInteger other = new AtomicInteger();
        BenchmarkFigures figures = BenchmarkRun.calls(name, THREADS, holds, i -> {
            Response held = hold(shoppers[i], "A-" + (1 + i % seats));
            if (held.status() == 201 && order) {
                order(shoppers[i], held.text("holdId"));
            }
            switch (held.status()) {
                case 201 -> created.incrementAndGet();
                case 409 -> conflicts.incrementAndGet();
                default -> other.incrementAndGet();
            }
        });
        figures.add("seats", seats)
                .add("created", created.get())
                .add("conflicts", conflicts.get())
                .add("other", other.get());
        assertThat(other.get()).as(figures.line()).isZero();
        assertThat(created.get()).isLessThanOrEqualTo(seats);
        assertThat(count("SELECT count(*) FROM seats WHERE event_id = ? AND state = 'HELD'", event))
                .isEqualTo(created.get());
        return figures;
    }
}
