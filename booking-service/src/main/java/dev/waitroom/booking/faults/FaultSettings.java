package dev.waitroom.booking.faults;

/**
 * Ops fault injection for load tests (all off by default, reversible at run time).
 *
 * @param latencyMs  added to every shop request before it is handled
 * @param errorRate  share of shop requests answered 503 (0..1)
 * @param poolLimit  connections the service may use at once; 0 = the whole pool
 */
public record FaultSettings(long latencyMs, double errorRate, int poolLimit) {

    public static final FaultSettings NONE = new FaultSettings(0, 0.0, 0);

    public FaultSettings {
        if (latencyMs < 0 || latencyMs > 30_000) {
            throw new IllegalArgumentException("latencyMs must be 0..30000");
        }
        if (!(errorRate >= 0.0 && errorRate <= 1.0)) {
            throw new IllegalArgumentException("errorRate must be 0..1");
        }
        if (poolLimit < 0 || poolLimit > 1000) {
            throw new IllegalArgumentException("poolLimit must be 0 (off) or 1..1000");
        }
    }

    public boolean isActive() {
        return !equals(NONE);
    }
}
