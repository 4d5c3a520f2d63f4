package dev.waitroom.coordinator.tick;

import dev.waitroom.contract.OperatingMode;
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

    private final Map<String, Figures> figures = new ConcurrentHashMap<>();

    EventGauges(MeterRegistry meters) {
        this.meters = meters;
    }

    void update(String eventId, long offered, long active, long ceiling, double rate, OperatingMode mode) {
        Figures f = this.figures.computeIfAbsent(eventId, this::register);
        f.offered = offered;
        f.active = active;
        f.ceiling = ceiling;
        f.rate = rate;
        f.mode = mode;
    }

    void drift(String eventId, long drift) {
        this.figures.computeIfAbsent(eventId, this::register).drift = drift;
    }

    private Figures register(String eventId) {
        Figures f = new Figures();
        Gauge.builder("waitroom.coordinator.offered", f, x -> x.offered)
                .tag("event", eventId)
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.active", f, x -> x.active)
                .tag("event", eventId)
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.ceiling", f, x -> x.ceiling)
                .description("The event's configured ceiling: most sessions offered or active at once")
                .tag("event", eventId)
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.admission.rate", f, x -> x.rate)
                .tag("event", eventId)
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.drift", f, x -> x.drift)
                .tag("event", eventId)
                .register(this.meters);
        for (OperatingMode mode : OperatingMode.values()) {
            Gauge.builder("waitroom.coordinator.mode", f, x -> x.mode == mode ? 1 : 0)
                    .tag("event", eventId)
                    .tag("mode", mode.name())
                    .register(this.meters);
        }
        return f;
    }

    private static final class Figures {

        volatile double offered;

        volatile double active;

        volatile double ceiling;

        volatile double rate;

        volatile double drift;

        volatile OperatingMode mode;
    }
}
