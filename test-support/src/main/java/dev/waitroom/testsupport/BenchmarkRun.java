package dev.waitroom.testsupport;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs numbered calls on client threads and measures them: how many, in how long, and each call's latency
 * (docs/BENCHMARKS.md). Either a fixed number of calls ({@link #calls}) or as many as fit in a time
 * ({@link #forDuration}); the result is {@link BenchmarkFigures} with {@code requests threads seconds rps p50_ms
 * p99_ms max_ms}, to which the caller adds its own figures before printing.
 *
 * <pre>
 * BenchmarkRun.calls("queue.join", 32, 20_000, i -> assertThat(client.join(event, visitor(i)).status()).isEqualTo(201))
 *         .print();
 * </pre>
 *
 * The first call that throws ends the run and is rethrown: a benchmark that measured failures measured nothing.
 */
public final class BenchmarkRun {

    /** One call of the benchmark; {@code index} counts from 0 across all threads. */
    @FunctionalInterface
    public interface Call {
        void call(int index) throws Exception;
    }

    private BenchmarkRun() {}

    /** {@code calls} calls on {@code threads} threads, each index once. */
    public static BenchmarkFigures calls(String name, int threads, int calls, Call call) throws Exception {
        return run(name, threads, calls, Long.MAX_VALUE, call);
    }

    /** As many calls as {@code threads} threads complete in {@code duration} (a call under way is finished). */
    public static BenchmarkFigures forDuration(String name, int threads, Duration duration, Call call)
            throws Exception {
        return run(name, threads, Integer.MAX_VALUE, System.nanoTime() + duration.toNanos(), call);
    }

    private static BenchmarkFigures run(String name, int threads, int calls, long deadline, Call call)
            throws Exception {
        if (threads < 1 || calls < 1) {
            throw new IllegalArgumentException("a run needs a thread and a call");
        }
        AtomicInteger next = new AtomicInteger();
        AtomicBoolean failed = new AtomicBoolean();
        List<Future<long[]>> done = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        try {
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    long[] mine = new long[1024];
                    int n = 0;
                    try {
                        for (int i = next.getAndIncrement();
                                i < calls && !failed.get() && System.nanoTime() < deadline;
                                i = next.getAndIncrement()) {
                            long begin = System.nanoTime();
                            call.call(i);
                            if (n == mine.length) {
                                mine = Arrays.copyOf(mine, n * 2);
                            }
                            mine[n++] = System.nanoTime() - begin;
                        }
                    } catch (Exception | Error e) {
                        failed.set(true);
                        throw e;
                    }
                    return Arrays.copyOf(mine, n);
                }));
            }
            long[] all = new long[0];
            for (Future<long[]> thread : done) {
                long[] mine = thread.get();
                int from = all.length;
                all = Arrays.copyOf(all, from + mine.length);
                System.arraycopy(mine, 0, all, from, mine.length);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            Arrays.sort(all);
            return BenchmarkFigures.named(name)
                    .add("requests", all.length)
                    .add("threads", threads)
                    .add("seconds", seconds)
                    .add("rps", all.length / seconds)
                    .add("p50_ms", percentile(all, 50) / 1e6)
                    .add("p99_ms", percentile(all, 99) / 1e6)
                    .add("max_ms", (all.length == 0 ? 0 : all[all.length - 1]) / 1e6);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw e;
        } finally {
            pool.shutdownNow();
        }
    }

    /** Nearest rank: the smallest latency that {@code p} per cent of the calls did not exceed. */
    static long percentile(long[] sorted, double p) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
