package dev.waitroom.coordinator.rate;

import java.time.Duration;

/**
 * Tuning of the {@link RateController}. Thresholds come in pairs: above {@code degraded*} the rate is cut; only
 * below {@code healthyShare} of it a window counts as healthy (hysteresis: the band between holds the rate).
 * {@code startFactor} is what an event admits at before any health is measured; an edge window is judged on its error
 * rate only with at least {@code edgeMinFailures} failed requests and on its latency only with at least
 * {@code edgeMinRequests} requests, so one stray 502 or one slow page of a quiet sale does not pause it.
 */
public record RateControllerSettings(
        Duration staleAfter,
        double smoothing,
        int healthyWindowsToIncrease,
        double increaseStep,
        double decreaseFactor,
        double minFactor,
        double resumeFactor,
        double healthyShare,
        double degradedLatencyMs,
        double criticalLatencyMs,
        double degradedErrorRate,
        double criticalErrorRate,
        double degradedPoolPressure,
        double criticalPoolPressure,
        double degradedHoldFailureRate,
        double criticalHoldFailureRate,
        double startFactor,
        int edgeMinRequests,
        int edgeMinFailures) {

    public RateControllerSettings {
        if (staleAfter == null || staleAfter.isNegative() || staleAfter.isZero()) {
            throw new IllegalArgumentException("staleAfter must be positive");
        }
        if (!(smoothing > 0 && smoothing <= 1)
                || !(decreaseFactor > 0 && decreaseFactor < 1)
                || !(increaseStep > 0 && increaseStep <= 1)
                || !(minFactor > 0 && minFactor <= resumeFactor)
                || !(resumeFactor <= 1)
                || !(healthyShare > 0 && healthyShare < 1)
                || !(startFactor >= minFactor && startFactor <= 1)
                || edgeMinRequests < 1
                || edgeMinFailures < 1
                || healthyWindowsToIncrease < 1) {
            throw new IllegalArgumentException("inconsistent rate controller settings");
        }
        if (criticalLatencyMs < degradedLatencyMs
                || criticalErrorRate < degradedErrorRate
                || criticalPoolPressure < degradedPoolPressure
                || criticalHoldFailureRate < degradedHoldFailureRate) {
            throw new IllegalArgumentException("critical thresholds must be above degraded thresholds");
        }
    }

    public static RateControllerSettings defaults() {
        return new RateControllerSettings(
                Duration.ofSeconds(3),
                0.3,
                3,
                0.1,
                0.5,
                0.05,
                0.2,
                0.75,
                800,
                3000,
                0.02,
                0.2,
                0.85,
                1.5,
                0.2,
                0.6,
                0.2,
                3,
                3);
    }
}
