package dev.waitroom.contract.coordinator;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import java.time.Instant;
import java.util.List;

/**
 * Body of {@code POST /internal/edge-health} ({@link CoordinatorPaths#EDGE_HEALTH}): one gateway instance's window of
 * the requests it forwarded to shop origins, per event and origin, sent every second. A report with no window still
 * says the edge is there: the coordinator pauses an event whose traffic the edge stopped reporting, never one that
 * simply has none (docs/design/architecture.md, rate controller).
 *
 * @param gateway the reporting gateway instance, an opaque id
 * @param at the end of the window
 * @param windowSeconds how long the window was
 * @param windows one per (event, origin) the gateway forwarded to in the window, at most {@link #MAX_WINDOWS}
 */
public record EdgeHealthReport(String gateway, Instant at, int windowSeconds, List<Window> windows) {

    /** Windows per report at most; a gateway with more events reports the busiest. */
    public static final int MAX_WINDOWS = 500;

    /**
     * The requests one gateway forwarded for one event to one origin in the window. Latencies are the upper bounds of
     * the gateway's buckets, in milliseconds, to the origin's response headers; a timed-out or failed request counts
     * in {@code requests} and in its own figure, not in the latencies.
     *
     * @param eventId the event whose protected path the requests were for
     * @param origin the origin's scheme, host and port ({@code https://shop.example:443})
     * @param requests every request forwarded, whatever its outcome
     * @param serverErrors answers with a 5xx status from the origin
     * @param timeouts requests the origin did not answer within the gateway's response timeout
     * @param connectionErrors requests that could not reach the origin (refused, reset, closed early)
     */
    public record Window(
            String eventId,
            String origin,
            long requests,
            long serverErrors,
            long timeouts,
            long connectionErrors,
            double latencyP95Ms,
            double latencyP99Ms) {

        /** Requests that failed at the origin: 5xx answers, timeouts and connection errors. */
        public long failures() {
            return serverErrors + timeouts + connectionErrors;
        }
    }

    /**
     * This report when it can be a measurement, else a {@link MalformedValueException} with
     * {@link ProblemType#INVALID_HEALTH_REPORT}: a gateway and {@code at} are required, every window names a valid
     * event and an origin, no figure is negative, failures are not more than the requests, latencies are at most a
     * day.
     */
    public EdgeHealthReport validated() {
        if (gateway == null || gateway.isBlank() || gateway.length() > 200) {
            throw invalid("gateway is required (at most 200 characters)");
        }
        if (at == null) {
            throw invalid("at is required");
        }
        if (windowSeconds < 0) {
            throw invalid("figures must not be negative");
        }
        if (windows != null && windows.size() > MAX_WINDOWS) {
            throw invalid("at most " + MAX_WINDOWS + " windows per report");
        }
        for (Window w : windows()) {
            if (w == null || !EventId.isValid(w.eventId())) {
                throw invalid("each window names a valid eventId");
            }
            if (w.origin() == null || w.origin().isBlank() || w.origin().length() > 300) {
                throw invalid("each window names its origin (at most 300 characters)");
            }
            if (w.requests() < 0 || w.serverErrors() < 0 || w.timeouts() < 0 || w.connectionErrors() < 0) {
                throw invalid("figures must not be negative");
            }
            if (w.serverErrors() > w.requests()
                    || w.timeouts() > w.requests()
                    || w.connectionErrors() > w.requests()
                    || w.failures() > w.requests()) {
                throw invalid("failures cannot be more than the requests");
            }
            if (!(w.latencyP95Ms() >= 0 && w.latencyP95Ms() <= HealthReport.MAX_LATENCY_MS)
                    || !(w.latencyP99Ms() >= 0 && w.latencyP99Ms() <= HealthReport.MAX_LATENCY_MS)) {
                throw invalid("latencies must be numbers of 0 to " + (long) HealthReport.MAX_LATENCY_MS + " ms");
            }
        }
        return this;
    }

    /** The windows, none when the body had no list. */
    @Override
    public List<Window> windows() {
        return windows == null ? List.of() : windows;
    }

    private static MalformedValueException invalid(String detail) {
        return new MalformedValueException(ProblemType.INVALID_HEALTH_REPORT, detail);
    }
}
