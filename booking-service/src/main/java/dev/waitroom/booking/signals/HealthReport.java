package dev.waitroom.booking.signals;

import java.time.Instant;

/** One window of booking health, as the coordinator's {@code POST /internal/health} expects it. */
public record HealthReport(Instant at, int windowSeconds, long requests, long latencyP95Ms, long latencyP99Ms,
        double errorRate, int poolActive, int poolPending, int poolMax, double holdFailureRate) {
}
