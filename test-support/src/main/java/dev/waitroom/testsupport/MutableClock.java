package dev.waitroom.testsupport;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves by hand, in UTC: {@link #advance} only forward (a token's expiry, a lease's renewal, a sweep's
 * cut-off are all read against it), {@link #set} to any instant where a test places a moment exactly. Thread-safe, so a
 * service's scheduler may read it while the test moves it.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock forward by {@code by} and returns the new instant. */
    public Instant advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time only moves forward");
        }
        return now.updateAndGet(t -> t.plus(by));
    }

    public void set(Instant instant) {
        now.set(instant);
    }

    @Override
    public Instant instant() {
        return now.get();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
