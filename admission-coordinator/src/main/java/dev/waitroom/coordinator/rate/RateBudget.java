package dev.waitroom.coordinator.rate;

import java.time.Duration;
import java.time.Instant;

/**
 * Token bucket for one event's admission rate, with fractional carry between ticks. The bucket holds at most one
 * second of the current rate (at least one token), so an idle spell never turns into a burst. Not thread-safe: one
 * ticker owns it.
 */
public final class RateBudget {

    private double tokens;

    private Instant last;

    /** Whole admissions allowed now at {@code ratePerSecond}. */
    public int available(double ratePerSecond, Instant now) {
        if (this.last != null && now.isAfter(this.last)) {
            double seconds = Duration.between(this.last, now).toNanos() / 1e9;
            this.tokens += ratePerSecond * seconds;
        }
        this.last = now;
        if (ratePerSecond <= 0) {
            this.tokens = 0;
            return 0;
        }
        this.tokens = Math.min(this.tokens, Math.max(1, ratePerSecond));
        return (int) Math.floor(this.tokens);
    }

    /** Spends what was actually admitted. */
    public void spend(int admitted) {
        this.tokens = Math.max(0, this.tokens - admitted);
    }
}
