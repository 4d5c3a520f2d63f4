package dev.waitroom.coordinator.rate;

import dev.waitroom.contract.coordinator.HealthReport;
import java.time.Instant;

/**
 * One booking health report (CONTRACTS: POST /internal/health), as the controller reads it. It holds to the contract's
 * rule for a report ({@link HealthReport#validated()}: {@code at} required, rates within 0..1, no negative figure) and
 * throws its {@code MalformedValueException} (an {@link IllegalArgumentException}) otherwise.
 */
public record HealthSample(
        Instant at,
        int windowSeconds,
        long requests,
        double latencyP95Ms,
        double latencyP99Ms,
        double errorRate,
        int poolActive,
        int poolPending,
        int poolMax,
        double holdFailureRate) {

    public HealthSample {
        new HealthReport(
                        at,
                        windowSeconds,
                        requests,
                        latencyP95Ms,
                        latencyP99Ms,
                        errorRate,
                        poolActive,
                        poolPending,
                        poolMax,
                        holdFailureRate)
                .validated();
    }

    public static HealthSample of(HealthReport report) {
        return new HealthSample(
                report.at(),
                report.windowSeconds(),
                report.requests(),
                report.latencyP95Ms(),
                report.latencyP99Ms(),
                report.errorRate(),
                report.poolActive(),
                report.poolPending(),
                report.poolMax(),
                report.holdFailureRate());
    }

    /** Share of the connection pool in use, counting waiters: 1.0 = full, above = queueing for connections. */
    public double poolPressure() {
        return this.poolMax == 0 ? 0 : (double) (this.poolActive + this.poolPending) / this.poolMax;
    }
}
