package dev.waitroom.coordinator.rate;

import dev.waitroom.contract.coordinator.EdgeHealthReport;
import java.time.Instant;

/**
 * One gateway's window of the requests it forwarded for one event to its origin (CONTRACTS: POST /internal/edge-health),
 * as the controller reads it. Failures are 5xx answers, timeouts and connection errors together.
 */
public record EdgeSample(
        Instant at,
        int windowSeconds,
        long requests,
        long serverErrors,
        long timeouts,
        long connectionErrors,
        double latencyP95Ms,
        double latencyP99Ms) {

    public EdgeSample {
        if (at == null || requests < 0 || serverErrors < 0 || timeouts < 0 || connectionErrors < 0) {
            throw new IllegalArgumentException("an edge sample has a time and no negative figure");
        }
    }

    public static EdgeSample of(Instant at, int windowSeconds, EdgeHealthReport.Window w) {
        return new EdgeSample(
                at,
                windowSeconds,
                w.requests(),
                w.serverErrors(),
                w.timeouts(),
                w.connectionErrors(),
                w.latencyP95Ms(),
                w.latencyP99Ms());
    }

    public long failures() {
        return this.serverErrors + this.timeouts + this.connectionErrors;
    }

    public double errorRate() {
        return this.requests == 0 ? 0 : Math.min(1, (double) failures() / this.requests);
    }
}
