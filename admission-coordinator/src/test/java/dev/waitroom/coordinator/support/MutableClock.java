package dev.waitroom.coordinator.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/** A clock tests move by hand (never backwards). Thread-safe. */
public final class MutableClock extends Clock {

    private final AtomicReference<Instant> now;

    public MutableClock(Instant start) {
        this.now = new AtomicReference<>(start);
    }

    public Instant advance(Duration by) {
        if (by.isNegative()) {
            throw new IllegalArgumentException("time only moves forward");
        }
        return this.now.updateAndGet(t -> t.plus(by));
    }

    @Override
    public Instant instant() {
        return this.now.get();
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
