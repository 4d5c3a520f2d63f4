package dev.waitroom.coordinator.tick;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.AdmissionHold;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Per-event gauges: offered, active, the ceiling (max active sessions as configured), admission rate, drift and mode,
 * as last seen by the leading ticker.
 */
@Component
public class EventGauges {

    private final MeterRegistry meters;

    private final Map<EventId, Figures> figures = new ConcurrentHashMap<>();

    EventGauges(MeterRegistry meters) {
        this.meters = meters;
    }

    void update(EventId eventId, long offered, long active, long ceiling, double rate, OperatingMode mode) {
        Figures f = this.figures.computeIfAbsent(eventId, this::register);
        f.offered = offered;
        f.active = active;
        f.ceiling = ceiling;
        f.rate = rate;
        f.mode = mode;
    }

    /**
     * Whether the shop's health holds the event's admission back ({@code waitroom_admission_held_by_health}, one series
     * per reason, 1 while it applies); registered with the event's other gauges, so the series exists from the start.
     */
    void heldByHealth(EventId eventId, AdmissionHold.Cause cause) {
        this.figures.computeIfAbsent(eventId, this::register).heldByHealth = cause;
    }

    void drift(EventId eventId, long drift) {
        this.figures.computeIfAbsent(eventId, this::register).drift = drift;
    }

    private Figures register(EventId eventId) {
        Figures f = new Figures();
        Gauge.builder("waitroom.coordinator.offered", f, x -> x.offered)
                .tag("event", eventId.value())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.active", f, x -> x.active)
                .tag("event", eventId.value())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.ceiling", f, x -> x.ceiling)
                .description("The event's configured ceiling: most sessions offered or active at once")
                .tag("event", eventId.value())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.admission.rate", f, x -> x.rate)
                .tag("event", eventId.value())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.drift", f, x -> x.drift)
                .tag("event", eventId.value())
                .register(this.meters);
        for (OperatingMode mode : OperatingMode.values()) {
            Gauge.builder("waitroom.coordinator.mode", f, x -> x.mode == mode ? 1 : 0)
                    .tag("event", eventId.value())
                    .tag("mode", mode.name())
                    .register(this.meters);
        }
        for (AdmissionHold.Cause cause : HEALTH_CAUSES) {
            Gauge.builder("waitroom.admission.held.by.health", f, x -> x.heldByHealth == cause ? 1 : 0)
                    .description("1 while the shop's health pauses or slows the event's admission (reason label)")
                    .tag("event", eventId.value())
                    .tag("reason", cause == AdmissionHold.Cause.SHOP_PAUSED ? "paused" : "slowed")
                    .register(this.meters);
        }
        return f;
    }

    private static final AdmissionHold.Cause[] HEALTH_CAUSES = {
        AdmissionHold.Cause.SHOP_PAUSED, AdmissionHold.Cause.SHOP_SLOWED
    };

    private static final class Figures {

        volatile double offered;

        volatile double active;

        volatile double ceiling;

        volatile double rate;

        volatile double drift;

        volatile OperatingMode mode;

        volatile AdmissionHold.Cause heldByHealth;
    }
}
