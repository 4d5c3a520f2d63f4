package dev.waitroom.coordinator.rate;

import java.time.Instant;

/** One controller decision; each is a metric and a log line. */
public record RateDecision(
        Instant at, Kind kind, double factorBefore, double factorAfter, HealthStatus status, String reason) {

    public enum Kind {
        INCREASE,
        DECREASE,
        PAUSE,
        RESUME
    }
}
