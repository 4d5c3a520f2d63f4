package dev.waitroom.contract.coordinator;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import java.time.Instant;

/**
 * Body of {@code POST /internal/health} ({@link CoordinatorPaths#HEALTH}): one window of booking health, sent every
 * second. Latencies are numbers of milliseconds (booking measures whole ones; the coordinator reads any number).
 */
public record HealthReport(
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

    /** The largest latency a report may carry: a day, far past any request timeout. */
    public static final double MAX_LATENCY_MS = 86_400_000;

    /**
     * This report when it can be a measurement, else a {@link MalformedValueException} with
     * {@link ProblemType#INVALID_HEALTH_REPORT}: {@code at} is required, rates are within 0..1, figures are not
     * negative, latencies are numbers of at most a day (JSON's {@code 1e400} reads as infinity).
     */
    public HealthReport validated() {
        if (at == null) {
            throw invalid("at is required");
        }
        if (!(errorRate >= 0 && errorRate <= 1) || !(holdFailureRate >= 0 && holdFailureRate <= 1)) {
            throw invalid("rates must be within 0..1");
        }
        if (!(latencyP95Ms <= MAX_LATENCY_MS) || !(latencyP99Ms <= MAX_LATENCY_MS)) {
            throw invalid("latencies must be numbers of at most " + (long) MAX_LATENCY_MS + " ms");
        }
        if (latencyP95Ms < 0
                || latencyP99Ms < 0
                || poolActive < 0
                || poolPending < 0
                || poolMax < 0
                || requests < 0
                || windowSeconds < 0) {
            throw invalid("figures must not be negative");
        }
        return this;
    }

    private static MalformedValueException invalid(String detail) {
        return new MalformedValueException(ProblemType.INVALID_HEALTH_REPORT, detail);
    }
}
