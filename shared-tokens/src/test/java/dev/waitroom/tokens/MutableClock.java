package dev.waitroom.tokens;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock a test moves by hand, in UTC: {@link #advance} only forward, {@link #set} to any instant. The same as
 * test-support's {@code MutableClock}, kept here because test-support depends on shared-tokens (its fake queue-service
 * issues real queue tickets), so shared-tokens cannot depend on test-support.
 */
final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;

    MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    /** Moves the clock forward by {@code by} and returns the new instant. */
    Instant advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time only moves forward");
        }
        return now.updateAndGet(t -> t.plus(by));
    }

    void set(Instant instant) {
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
