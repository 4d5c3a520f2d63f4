package dev.waitroom.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Races for tests: calls on threads of their own, released at the same moment behind one gate. */
public final class AllAtOnce {

    private static final long ANSWER_WITHIN_SECONDS = 60;

    private AllAtOnce() {}

    /**
     * Runs every call on a thread of its own, all released together, and answers their results in the order of the
     * calls. The first call that failed is rethrown (its own exception); a call that has not answered within 60 s
     * fails the race with a {@link TimeoutException}.
     */
    public static <T> List<T> call(List<? extends Callable<T>> calls) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(Math.max(1, calls.size()));
        try {
            CountDownLatch gate = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> call : calls) {
                futures.add(threads.submit(() -> {
                    gate.await();
                    return call.call();
                }));
            }
            gate.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                try {
                    results.add(future.get(ANSWER_WITHIN_SECONDS, TimeUnit.SECONDS));
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof Exception cause) {
                        throw cause;
                    }
                    throw e;
                }
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }

    /** The same call {@code times} times at once, as {@link #call(List)}. */
    public static <T> List<T> call(int times, Callable<T> call) throws Exception {
        return call(Collections.nCopies(times, call));
    }

    /** The call {@code count} times at once, each given its index (0 to count - 1), as {@link #call(List)}. */
    public static <T> List<T> each(int count, Indexed<T> call) throws Exception {
        List<Callable<T>> calls = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int index = i;
            calls.add(() -> call.call(index));
        }
        return call(calls);
    }

    /** A call that knows which of the racing calls it is. */
    @FunctionalInterface
    public interface Indexed<T> {
        T call(int index) throws Exception;
    }
}
