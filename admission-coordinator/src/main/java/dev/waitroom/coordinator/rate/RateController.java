package dev.waitroom.coordinator.rate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Admission rate controller (AIMD with smoothing and hysteresis). It turns booking health reports into a factor
 * between 0 and 1 that scales every event's configured maximum admission rate.
 * <ul>
 * <li>Each report is one window. Figures are smoothed (exponential moving average), so one slow window does not
 * move the rate.</li>
 * <li>After {@code healthyWindowsToIncrease} healthy windows in a row the factor grows by {@code increaseStep}.</li>
 * <li>A degraded smoothed window cuts the factor by {@code decreaseFactor} (at most once per window).</li>
 * <li>A critical raw window, or no report for {@code staleAfter}, pauses admission (factor 0). It resumes at
 * {@code resumeFactor} only after several healthy windows, then grows additively again.</li>
 * </ul>
 * Whether it admits at all is its {@link RateState}. Framework-free; time comes from the injected clock. Thread-safe.
 */
public final class RateController {

    private final RateControllerSettings settings;

    private final Clock clock;

    private final Consumer<RateDecision> decisions;

    private double factor;

    private RateState state = RateState.PAUSED;

    private int healthyStreak;

    private Instant lastSampleAt;

    private HealthSample last;

    private double latency;

    private double errors;

    private double pool;

    private double holds;

    private HealthStatus status = HealthStatus.STALE;

    private RateController(RateControllerSettings settings, Clock clock, Consumer<RateDecision> decisions) {
        this.settings = Objects.requireNonNull(settings);
        this.clock = Objects.requireNonNull(clock);
        this.decisions = Objects.requireNonNull(decisions);
        this.factor = 0;
    }

    /** A controller that starts paused (no health seen yet) and reports each decision to {@code decisions}. */
    public static RateController of(RateControllerSettings settings, Clock clock, Consumer<RateDecision> decisions) {
        return new RateController(settings, clock, decisions);
    }

    /** Records one booking health report and decides. Reports older than the last one are ignored. */
    public synchronized void record(HealthSample sample) {
        if (this.lastSampleAt != null && sample.at().isBefore(this.lastSampleAt)) {
            return;
        }
        Instant now = this.clock.instant();
        if (Duration.between(sample.at(), now).compareTo(this.settings.staleAfter()) > 0) {
            return; // a late report does not make health fresh
        }
        smooth(sample);
        this.last = sample;
        this.lastSampleAt = sample.at();
        HealthStatus raw =
                classify(sample.latencyP95Ms(), sample.errorRate(), sample.poolPressure(), sample.holdFailureRate());
        HealthStatus smoothed = classify(this.latency, this.errors, this.pool, this.holds);
        if (raw == HealthStatus.CRITICAL || smoothed == HealthStatus.CRITICAL) {
            this.status = HealthStatus.CRITICAL;
            pause(now, "critical booking health");
            return;
        }
        this.status = smoothed;
        switch (smoothed) {
            case DEGRADED -> {
                this.healthyStreak = 0;
                if (this.state == RateState.ADMITTING) {
                    double before = this.factor;
                    this.factor = Math.max(this.settings.minFactor(), this.factor * this.settings.decreaseFactor());
                    emit(now, RateDecision.Kind.DECREASE, before, "degraded booking health");
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

    /** The factor to apply now; pauses (and reports it once) when health has gone stale. */
    public synchronized double factor() {
        Instant now = this.clock.instant();
        if (this.lastSampleAt == null
                || Duration.between(this.lastSampleAt, now).compareTo(this.settings.staleAfter()) > 0) {
            this.status = HealthStatus.STALE;
            pause(
                    now,
                    "no booking health report for " + this.settings.staleAfter().toSeconds() + " s");
        }
        return admitted();
    }

    public synchronized HealthView view() {
        double f = factor();
        return new HealthView(
                this.status,
                f,
                this.state == RateState.PAUSED,
                this.lastSampleAt,
                this.latency,
                this.errors,
                this.pool,
                this.holds,
                this.last == null ? null : this.last.latencyP99Ms());
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

    private void smooth(HealthSample s) {
        double a = this.settings.smoothing();
        if (this.last == null) {
            this.latency = s.latencyP95Ms();
            this.errors = s.errorRate();
            this.pool = s.poolPressure();
            this.holds = s.holdFailureRate();
            return;
        }
        this.latency = a * s.latencyP95Ms() + (1 - a) * this.latency;
        this.errors = a * s.errorRate() + (1 - a) * this.errors;
        this.pool = a * s.poolPressure() + (1 - a) * this.pool;
        this.holds = a * s.holdFailureRate() + (1 - a) * this.holds;
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

    /** What the live view shows about health. */
    public record HealthView(
            HealthStatus status,
            double factor,
            boolean paused,
            Instant lastReportAt,
            double smoothedLatencyP95Ms,
            double smoothedErrorRate,
            double smoothedPoolPressure,
            double smoothedHoldFailureRate,
            Double lastLatencyP99Ms) {}
}
