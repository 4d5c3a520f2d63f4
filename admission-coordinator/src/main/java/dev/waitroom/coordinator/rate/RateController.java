package dev.waitroom.coordinator.rate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One event's admission rate controller (AIMD with smoothing and hysteresis). It turns the event's health into a
 * factor between 0 and 1 that scales the event's configured maximum admission rate. Health has two sources, each
 * smoothed on its own: the shop's own reports ({@link #record(HealthSample)}, booking's {@code POST /internal/health})
 * and the gateways' measurements of the requests they forwarded to the event's origin ({@link #recordEdge}). The
 * event's status is the worse of the fresh ones (docs/design/architecture.md, rate controller):
 * <ul>
 * <li>Each report is one window. Figures are smoothed (exponential moving average), so one slow window does not
 * move the rate.</li>
 * <li>After {@code healthyWindowsToIncrease} healthy windows in a row the factor grows by {@code increaseStep}.</li>
 * <li>A degraded smoothed window cuts the factor by {@code decreaseFactor} (at most once per window).</li>
 * <li>A critical raw window pauses admission (factor 0). It resumes at {@code resumeFactor} only after several
 * healthy windows, then grows additively again.</li>
 * <li>Before any health is seen the event admits at {@code startFactor}: a shop that reports nothing and has had no
 * visitor yet is not paused. A shop's reports that stop only drop out; silence pauses only when the edge had
 * traffic for the event and then stopped reporting at all ({@code staleAfter}): the gateways are gone.</li>
 * <li>Windows in which no gateway forwarded anything for the event ({@link #edgeIdle}) say the edge is there; while
 * paused they count as healthy windows towards the resume (a probe at {@code resumeFactor}), never towards an
 * increase: an idle event does not climb to full rate with nobody to measure.</li>
 * </ul>
 * Whether it admits at all is its {@link RateState}. Framework-free; time comes from the injected clock. Thread-safe.
 */
public final class RateController {

    private final RateControllerSettings settings;

    private final Clock clock;

    private final Consumer<RateDecision> decisions;

    private double factor;

    private RateState state = RateState.ADMITTING;

    private int healthyStreak;

    private final Source shop;

    private final Source edge;

    /** When any gateway last reported (a window of this event's or none): the edge is there. */
    private Instant edgeAliveAt;

    /** The newest edge window that stepped the controller: several gateways' windows of one second step it once. */
    private Instant edgeSteppedAt;

    private HealthStatus status = HealthStatus.UNMEASURED;

    private long edgeCarriedFailures;

    private long edgeCarriedRequests;

    private RateController(RateControllerSettings settings, Clock clock, Consumer<RateDecision> decisions) {
        this.settings = Objects.requireNonNull(settings);
        this.clock = Objects.requireNonNull(clock);
        this.decisions = Objects.requireNonNull(decisions);
        this.factor = settings.startFactor();
        this.shop = new Source();
        this.edge = new Source();
    }

    private RateController(RateController template, Consumer<RateDecision> decisions) {
        this(template.settings, template.clock, decisions);
        synchronized (template) {
            if (!template.fresh(template.shop, template.clock.instant())) {
                return; // nothing fresh to start from: the starting factor
            }
            this.factor = template.factor;
            this.state = template.state;
            this.healthyStreak = template.healthyStreak;
            this.status = template.status;
            this.shop.copy(template.shop);
        }
    }

    /**
     * A controller that admits at the starting factor until health is measured and reports each decision to
     * {@code decisions}.
     */
    public static RateController of(RateControllerSettings settings, Clock clock, Consumer<RateDecision> decisions) {
        return new RateController(settings, clock, decisions);
    }

    /**
     * A new event's controller that starts where {@code template} (fed the shop's reports only) is while the shop's
     * reports are fresh: an event created during a sale sees the shop's health at once. Otherwise it starts at the
     * starting factor, like any event of a shop that reports nothing.
     */
    public static RateController startingFrom(RateController template, Consumer<RateDecision> decisions) {
        return new RateController(template, decisions);
    }

    /** Records one of the shop's own health reports and decides. Reports older than the last one are ignored. */
    public synchronized void record(HealthSample sample) {
        if (this.shop.lastAt != null && sample.at().isBefore(this.shop.lastAt)) {
            return;
        }
        Instant now = this.clock.instant();
        if (tooLate(sample.at(), now)) {
            return; // a late report does not make health fresh
        }
        this.shop.smooth(sample.latencyP95Ms(), sample.errorRate(), sample.poolPressure(), sample.holdFailureRate());
        this.shop.lastAt = sample.at();
        this.shop.lastLatencyP99Ms = sample.latencyP99Ms();
        this.shop.raw =
                classify(sample.latencyP95Ms(), sample.errorRate(), sample.poolPressure(), sample.holdFailureRate());
        this.shop.smoothed = classify(this.shop.latency, this.shop.errors, this.shop.pool, this.shop.holds);
        decide(now, true, "shop");
    }

    /**
     * Records one gateway's window of this event's forwarded requests and decides. A window with no request only
     * says the edge is there ({@link #edgeIdle}).
     */
    public synchronized void recordEdge(EdgeSample sample) {
        Instant now = this.clock.instant();
        if (tooLate(sample.at(), now)) {
            return;
        }
        alive(sample.at());
        if (sample.requests() == 0) {
            idle(now, sample.at());
            return;
        }
        if (this.edge.lastAt != null && sample.at().isBefore(this.edge.lastAt)) {
            return;
        }
        RateControllerSettings c = this.settings;
        // too few requests to judge a figure on: the smoothed one holds
        boolean judgeLatency = sample.requests() >= c.edgeMinRequests();
        double latency = judgeLatency ? sample.latencyP95Ms() : this.edge.seen ? this.edge.latency : 0;
        // a few failures carry over into the next windows until there are enough to judge: a quiet origin that fails
        // every request still pauses, one stray 502 does not
        long failures = sample.failures() + this.edgeCarriedFailures;
        long requests = sample.requests() + this.edgeCarriedRequests;
        double errors;
        if (failures >= c.edgeMinFailures() || failures == 0 || requests > 1000) {
            errors = Math.min(1, (double) failures / requests);
            this.edgeCarriedFailures = 0;
            this.edgeCarriedRequests = 0;
        } else {
            errors = this.edge.seen ? this.edge.errors : 0;
            this.edgeCarriedFailures = failures;
            this.edgeCarriedRequests = requests;
        }
        this.edge.smooth(latency, errors, 0, 0);
        this.edge.lastAt = sample.at();
        this.edge.lastLatencyP99Ms = judgeLatency ? sample.latencyP99Ms() : this.edge.lastLatencyP99Ms;
        this.edge.raw = classify(latency, errors, 0, 0);
        this.edge.smoothed = classify(this.edge.latency, this.edge.errors, 0, 0);
        boolean step = this.edgeSteppedAt == null || sample.at().isAfter(this.edgeSteppedAt);
        if (step) {
            this.edgeSteppedAt = sample.at();
        }
        decide(now, step, "edge");
    }

    /**
     * A gateway reported at {@code at} without a window of this event: nothing was forwarded for it. The edge is
     * there; while paused (and no source says otherwise) this counts towards the resume.
     */
    public synchronized void edgeIdle(Instant at) {
        Instant now = this.clock.instant();
        if (tooLate(at, now)) {
            return;
        }
        alive(at);
        idle(now, at);
    }

    /** The factor to apply now; pauses (and reports it once) when the edge stopped reporting after traffic. */
    public synchronized double factor() {
        Instant now = this.clock.instant();
        if (this.edge.seen && (this.edgeAliveAt == null || tooLate(this.edgeAliveAt, now))) {
            this.status = HealthStatus.STALE;
            pause(now, "no edge health report for " + this.settings.staleAfter().toSeconds() + " s after traffic");
        }
        return admitted();
    }

    public synchronized HealthView view() {
        double f = factor();
        Instant now = this.clock.instant();
        Source latest = this.edge.seen && fresh(this.edge, now) ? this.edge : this.shop;
        return new HealthView(
                this.status,
                f,
                this.state == RateState.PAUSED,
                this.shop.lastAt,
                this.shop.latency,
                this.shop.errors,
                this.shop.pool,
                this.shop.holds,
                this.shop.seen ? this.shop.lastLatencyP99Ms : null,
                sourceStatus(this.shop, now),
                sourceStatus(this.edge, now),
                this.edge.lastAt,
                this.edge.latency,
                this.edge.errors,
                latest == this.edge ? "edge" : latest.seen ? "shop" : "none");
    }

    private void alive(Instant at) {
        if (this.edgeAliveAt == null || at.isAfter(this.edgeAliveAt)) {
            this.edgeAliveAt = at;
        }
    }

    /** A window without this event's traffic: counts towards a resume when nothing else is being measured. */
    private void idle(Instant now, Instant at) {
        if (this.state != RateState.PAUSED) {
            return;
        }
        boolean edgeQuiet = this.edge.lastAt == null
                || Duration.between(this.edge.lastAt, at).compareTo(Duration.ofSeconds(2)) > 0;
        boolean shopSaysOtherwise = fresh(this.shop, now) && this.shop.smoothed != HealthStatus.HEALTHY;
        if (!edgeQuiet || shopSaysOtherwise) {
            return;
        }
        if (this.edgeSteppedAt != null && !at.isAfter(this.edgeSteppedAt)) {
            return;
        }
        this.edgeSteppedAt = at;
        this.status = fresh(this.shop, now) ? HealthStatus.HEALTHY : HealthStatus.UNMEASURED;
        this.healthyStreak++;
        if (this.healthyStreak >= this.settings.healthyWindowsToIncrease()) {
            this.healthyStreak = 0;
            double before = this.factor;
            this.state = RateState.ADMITTING;
            this.factor = this.settings.resumeFactor();
            emit(now, RateDecision.Kind.RESUME, before, "edge there and idle after pause");
        }
    }

    /** The worse of the fresh sources decides; {@code step} false only updates the status (and pauses if critical). */
    private void decide(Instant now, boolean step, String source) {
        HealthStatus raw = HealthStatus.UNMEASURED;
        HealthStatus smoothed = HealthStatus.UNMEASURED;
        String worst = source;
        for (Source s : new Source[] {this.shop, this.edge}) {
            if (s.seen && fresh(s, now)) {
                HealthStatus before = smoothed;
                raw = HealthStatus.worse(raw, s.raw);
                smoothed = HealthStatus.worse(smoothed, s.smoothed);
                if (smoothed != before || s.raw == HealthStatus.CRITICAL) {
                    worst = s == this.shop ? "shop" : "edge";
                }
            }
        }
        if (raw == HealthStatus.CRITICAL || smoothed == HealthStatus.CRITICAL) {
            this.status = HealthStatus.CRITICAL;
            pause(now, "critical " + worst + " health");
            return;
        }
        this.status = smoothed;
        if (!step) {
            return;
        }
        switch (smoothed) {
            case DEGRADED -> {
                this.healthyStreak = 0;
                if (this.state == RateState.ADMITTING) {
                    double before = this.factor;
                    this.factor = Math.max(this.settings.minFactor(), this.factor * this.settings.decreaseFactor());
                    emit(now, RateDecision.Kind.DECREASE, before, "degraded " + worst + " health");
                }
            }
            case STRAINED -> this.healthyStreak = 0;
            case HEALTHY -> {
                this.healthyStreak++;
                if (this.healthyStreak >= this.settings.healthyWindowsToIncrease()) {
                    this.healthyStreak = 0;
                    double before = this.factor;
                    if (this.state.canMoveTo(RateState.ADMITTING)) {
                        this.state = RateState.ADMITTING;
                        this.factor = this.settings.resumeFactor();
                        emit(now, RateDecision.Kind.RESUME, before, "healthy after pause");
                    } else if (this.factor < 1) {
                        this.factor =
                                Math.min(1, Math.round((this.factor + this.settings.increaseStep()) * 1000) / 1000.0);
                        emit(now, RateDecision.Kind.INCREASE, before, "healthy windows");
                    }
                }
            }
            default -> {}
        }
    }

    private boolean tooLate(Instant at, Instant now) {
        return Duration.between(at, now).compareTo(this.settings.staleAfter()) > 0;
    }

    private boolean fresh(Source s, Instant now) {
        return s.lastAt != null && !tooLate(s.lastAt, now);
    }

    private HealthStatus sourceStatus(Source s, Instant now) {
        if (!s.seen) {
            return s == this.shop ? HealthStatus.STALE : HealthStatus.UNMEASURED;
        }
        if (!fresh(s, now)) {
            return HealthStatus.STALE;
        }
        return s.raw == HealthStatus.CRITICAL ? HealthStatus.CRITICAL : s.smoothed;
    }

    private void pause(Instant now, String reason) {
        this.healthyStreak = 0;
        if (this.state.canMoveTo(RateState.PAUSED)) {
            double before = this.factor;
            this.state = RateState.PAUSED;
            emit(now, RateDecision.Kind.PAUSE, before, reason);
        }
        // Resume from a low rate whatever the factor was before the pause.
        this.factor = Math.min(this.factor, this.settings.resumeFactor());
    }

    private void emit(Instant now, RateDecision.Kind kind, double before, String reason) {
        this.decisions.accept(new RateDecision(now, kind, before, admitted(), this.status, reason));
    }

    /** The factor in force: none while paused. */
    private double admitted() {
        return this.state == RateState.PAUSED ? 0 : this.factor;
    }

    private HealthStatus classify(double latencyMs, double errorRate, double poolPressure, double holdFailures) {
        RateControllerSettings c = this.settings;
        if (latencyMs >= c.criticalLatencyMs()
                || errorRate >= c.criticalErrorRate()
                || poolPressure >= c.criticalPoolPressure()
                || holdFailures >= c.criticalHoldFailureRate()) {
            return HealthStatus.CRITICAL;
        }
        if (latencyMs >= c.degradedLatencyMs()
                || errorRate >= c.degradedErrorRate()
                || poolPressure >= c.degradedPoolPressure()
                || holdFailures >= c.degradedHoldFailureRate()) {
            return HealthStatus.DEGRADED;
        }
        double h = c.healthyShare();
        if (latencyMs < c.degradedLatencyMs() * h
                && errorRate < c.degradedErrorRate() * h
                && poolPressure < c.degradedPoolPressure() * h
                && holdFailures < c.degradedHoldFailureRate() * h) {
            return HealthStatus.HEALTHY;
        }
        return HealthStatus.STRAINED;
    }

    /** One source's smoothed figures and its latest judgement. */
    private final class Source {

        boolean seen;

        Instant lastAt;

        double latency;

        double errors;

        double pool;

        double holds;

        double lastLatencyP99Ms;

        HealthStatus raw = HealthStatus.UNMEASURED;

        HealthStatus smoothed = HealthStatus.UNMEASURED;

        void smooth(double latencyMs, double errorRate, double poolPressure, double holdFailures) {
            double a = RateController.this.settings.smoothing();
            if (!this.seen) {
                this.seen = true;
                this.latency = latencyMs;
                this.errors = errorRate;
                this.pool = poolPressure;
                this.holds = holdFailures;
                return;
            }
            this.latency = a * latencyMs + (1 - a) * this.latency;
            this.errors = a * errorRate + (1 - a) * this.errors;
            this.pool = a * poolPressure + (1 - a) * this.pool;
            this.holds = a * holdFailures + (1 - a) * this.holds;
        }

        void copy(Source other) {
            this.seen = other.seen;
            this.lastAt = other.lastAt;
            this.latency = other.latency;
            this.errors = other.errors;
            this.pool = other.pool;
            this.holds = other.holds;
            this.lastLatencyP99Ms = other.lastLatencyP99Ms;
            this.raw = other.raw;
            this.smoothed = other.smoothed;
        }
    }

    /**
     * What the live view shows about an event's health: the event's status and factor, the shop's own reports
     * (smoothed figures, {@code lastReportAt}, {@code shopStatus}: STALE when none is fresh) and the edge's
     * measurements ({@code edgeStatus}: UNMEASURED before any traffic), and which of the two is freshest.
     */
    public record HealthView(
            HealthStatus status,
            double factor,
            boolean paused,
            Instant lastReportAt,
            double smoothedLatencyP95Ms,
            double smoothedErrorRate,
            double smoothedPoolPressure,
            double smoothedHoldFailureRate,
            Double lastLatencyP99Ms,
            HealthStatus shopStatus,
            HealthStatus edgeStatus,
            Instant lastEdgeWindowAt,
            double edgeSmoothedLatencyP95Ms,
            double edgeSmoothedErrorRate,
            String measuredBy) {}
}
