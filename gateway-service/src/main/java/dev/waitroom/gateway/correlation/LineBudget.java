package dev.waitroom.gateway.correlation;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * At most so many lines a second, and how many were held back: a log that any client can write to (every non-GET
 * request, an unrouted 404 included, is an access line at INFO) must not grow with the client's request rate. Lock-free
 * and allocation-free; a line taken just as the second turns may count against either second.
 */
final class LineBudget {

    private final int perSecond;

    private final LongSupplier nanoTime;

    private final AtomicLong second = new AtomicLong(Long.MIN_VALUE);

    private final AtomicInteger taken = new AtomicInteger();

    private final AtomicLong dropped = new AtomicLong();

    LineBudget(int perSecond, LongSupplier nanoTime) {
        if (perSecond < 1) {
            throw new IllegalArgumentException("at least one line a second, not " + perSecond);
        }
        this.perSecond = perSecond;
        this.nanoTime = nanoTime;
    }

    /**
     * Takes one line of this second's budget: {@code -1} when it is spent (the line is to be dropped, and is counted),
     * else the number of lines dropped since the last line taken, for a summary line beside this one.
     */
    long take() {
        long now = TimeUnit.NANOSECONDS.toSeconds(nanoTime.getAsLong());
        long current = second.get();
        if (now != current && second.compareAndSet(current, now)) {
            taken.set(0);
        }
        if (taken.incrementAndGet() > perSecond) {
            dropped.incrementAndGet();
            return -1;
        }
        return dropped.getAndSet(0);
    }
}
