package dev.waitroom.coordinator.rate;

import java.time.Instant;

/** One booking health report (CONTRACTS: POST /internal/health). */
public record HealthSample(Instant at, int windowSeconds, long requests, double latencyP95Ms, double latencyP99Ms,
		double errorRate, int poolActive, int poolPending, int poolMax, double holdFailureRate) {

	public HealthSample {
		if (at == null) {
			throw new IllegalArgumentException("at is required");
		}
		if (!(errorRate >= 0 && errorRate <= 1) || !(holdFailureRate >= 0 && holdFailureRate <= 1)) {
			throw new IllegalArgumentException("rates must be within 0..1");
		}
		if (latencyP95Ms < 0 || latencyP99Ms < 0 || poolActive < 0 || poolPending < 0 || poolMax < 0 || requests < 0
				|| windowSeconds < 0) {
			throw new IllegalArgumentException("figures must not be negative");
		}
	}

	/** Share of the connection pool in use, counting waiters: 1.0 = full, above = queueing for connections. */
	public double poolPressure() {
		return this.poolMax == 0 ? 0 : (double) (this.poolActive + this.poolPending) / this.poolMax;
	}

}
