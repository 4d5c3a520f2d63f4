package dev.waitroom.booking.signals;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;

/**
 * Shop request latency and errors of the current reporting window: a 1 ms-resolution histogram up to 10 s, longer requests counted as 10 s (fixed
 * memory, lock-free recording), swapped out whole at every tick.
 */
final class RequestWindow {

    private static final int BUCKETS = 10_001;

    private final AtomicReference<Counts> current = new AtomicReference<>(new Counts());

    void record(long latencyMs, boolean error) {
        Counts counts = current.get();
        counts.latencies.incrementAndGet((int) Math.min(Math.max(latencyMs, 0), BUCKETS - 1));
        counts.requests.increment();
        if (error) {
            counts.errors.increment();
        }
    }

    /** Ends the window and starts a new one. */
    Summary roll() {
        Counts ended = current.getAndSet(new Counts());
        long requests = ended.requests.sum();
        long errors = ended.errors.sum();
        return new Summary(
                requests,
                percentile(ended, requests, 0.95),
                percentile(ended, requests, 0.99),
                requests == 0 ? 0.0 : (double) errors / requests);
    }

    private static long percentile(Counts counts, long total, double quantile) {
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * total);
        long seen = 0;
        for (int ms = 0; ms < BUCKETS; ms++) {
            seen += counts.latencies.get(ms);
            if (seen >= rank) {
                return ms;
            }
        }
        return BUCKETS - 1;
    }

    record Summary(long requests, long p95Ms, long p99Ms, double errorRate) {}

    private static final class Counts {
        final AtomicLongArray latencies = new AtomicLongArray(BUCKETS);
        final LongAdder requests = new LongAdder();
        final LongAdder errors = new LongAdder();
    }
}
