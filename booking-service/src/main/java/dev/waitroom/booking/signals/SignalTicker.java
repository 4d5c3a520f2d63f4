package dev.waitroom.booking.signals;

import dev.waitroom.booking.catalogue.CategoryReports;
import dev.waitroom.booking.holds.Holds;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.outbox.PendingSignal;
import dev.waitroom.booking.pool.DatabasePool;
import dev.waitroom.booking.pool.PoolStats;
import dev.waitroom.contract.coordinator.HealthReport;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every interval: report the last window's health, then deliver owed signals (sold out, purchase completed, seat
 * categories, whose counts are read as they are sent). A
 * coordinator that cannot be reached is logged once per outage and retried on the next tick; shoppers never wait.
 */
final class SignalTicker {

    private static final Logger log = LoggerFactory.getLogger(SignalTicker.class);
    private static final int OUTBOX_BATCH = 100;

    private final CoordinatorSignals coordinator;
    private final RequestWindow window;
    private final DatabasePool pool;
    private final CoordinatorOutbox outbox;
    private final CategoryReports categories;
    private final MeterRegistry meters;
    private final Clock clock;
    private final int windowSeconds;
    private double lastHolds;
    private double lastHoldFailures;
    private boolean reachable = true;

    SignalTicker(
            CoordinatorSignals coordinator,
            RequestWindow window,
            DatabasePool pool,
            CoordinatorOutbox outbox,
            CategoryReports categories,
            MeterRegistry meters,
            Clock clock,
            SignalsProperties properties) {
        this.coordinator = coordinator;
        this.window = window;
        this.pool = pool;
        this.outbox = outbox;
        this.categories = categories;
        this.meters = meters;
        this.clock = clock;
        this.windowSeconds = (int) Math.max(1, Math.round(properties.interval().toMillis() / 1000.0));
    }

    synchronized void tick() {
        HealthReport report = report();
        boolean ok = send(() -> coordinator.health(report));
        if (ok) {
            deliverOwedSignals();
        }
    }

    HealthReport report() {
        RequestWindow.Summary requests = window.roll();
        PoolStats stats = pool.stats();
        double holds = sum(Holds.HOLDS_METRIC);
        double failures = sum(Holds.HOLD_FAILURES_METRIC);
        double holdDelta = holds - lastHolds;
        double failureDelta = failures - lastHoldFailures;
        lastHolds = holds;
        lastHoldFailures = failures;
        return new HealthReport(
                clock.instant(),
                windowSeconds,
                requests.requests(),
                requests.p95Ms(),
                requests.p99Ms(),
                requests.errorRate(),
                stats.active(),
                stats.pending(),
                stats.max(),
                holdDelta <= 0 ? 0.0 : Math.min(1.0, failureDelta / holdDelta));
    }

    private void deliverOwedSignals() {
        List<PendingSignal> owed;
        try {
            owed = outbox.pending(OUTBOX_BATCH);
        } catch (RuntimeException e) {
            log.warn("could not read owed coordinator signals: {}", e.getClass().getSimpleName());
            return;
        }
        for (PendingSignal signal : owed) {
            boolean delivered;
            try {
                delivered = send(() -> {
                    switch (signal.kind()) {
                        case SOLD_OUT -> coordinator.soldOut(signal.eventId(), "all seats sold");
                        case PURCHASE_COMPLETED ->
                            coordinator.purchaseCompleted(signal.eventId(), signal.sessionId(), signal.orderId());
                        // Counted after the signal was read: every change up to its revision is in the counts.
                        case CATEGORIES ->
                            coordinator.categories(signal.eventId(), categories.report(signal.eventId()));
                    }
                });
            } catch (CoordinatorSignals.CoordinatorRefusedException refused) {
                log.warn(
                        "coordinator refused a {} signal with {}; it will not be resent",
                        signal.kind(),
                        refused.status());
                outbox.refused(signal, refused.status());
                continue;
            }
            if (delivered) {
                outbox.delivered(signal);
            } else {
                outbox.failed(signal);
                return;
            }
        }
    }

    private boolean send(Runnable call) {
        try {
            call.run();
            if (!reachable) {
                log.info("coordinator reachable again");
                reachable = true;
            }
            return true;
        } catch (CoordinatorSignals.CoordinatorUnreachableException e) {
            if (reachable) {
                log.warn("coordinator unreachable, retrying every tick: {}", e.getMessage());
                reachable = false;
            }
            return false;
        }
    }

    private double sum(String metric) {
        return meters.find(metric).counters().stream()
                .mapToDouble(Counter::count)
                .sum();
    }
}
