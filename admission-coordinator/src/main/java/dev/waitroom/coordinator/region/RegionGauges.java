package dev.waitroom.coordinator.region;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Every region's budget as a regional gate last read the ledger: slots, live grants (used) and whether the budget is
 * frozen (its gate stopped renewing). Each gate publishes every region's row, so a dead region's frozen budget is seen;
 * dashboards take {@code max by (event, region)}.
 */
@Component
public class RegionGauges {

    private final MeterRegistry meters;

    private final Map<String, Figures> figures = new ConcurrentHashMap<>();

    RegionGauges(MeterRegistry meters) {
        this.meters = meters;
    }

    public void update(EventId eventId, RegionBudgets.Ledger ledger) {
        for (RegionBudgets.Budget budget : ledger.budgets()) {
            Figures f = this.figures.computeIfAbsent(
                    eventId.value() + "\u0000" + budget.region().name(), key -> register(eventId, budget.region()));
            f.slots = budget.slots();
            f.used = budget.live();
            f.frozen = budget.frozen() && Math.max(budget.slots(), budget.live()) > 0 ? 1 : 0;
        }
    }

    private Figures register(EventId eventId, Region region) {
        Figures f = new Figures();
        Gauge.builder("waitroom.coordinator.region.budget.slots", f, x -> x.slots)
                .description("Slots of the event's capacity leased to a region's gate")
                .tag("event", eventId.value())
                .tag("region", region.name())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.region.budget.used", f, x -> x.used)
                .description("Live grants (offered or active) a region's gate holds")
                .tag("event", eventId.value())
                .tag("region", region.name())
                .register(this.meters);
        Gauge.builder("waitroom.coordinator.region.budget.frozen", f, x -> x.frozen)
                .description(
                        "1 while a region's budget is frozen: its gate stopped renewing and it still holds capacity")
                .tag("event", eventId.value())
                .tag("region", region.name())
                .register(this.meters);
        return f;
    }

    private static final class Figures {

        volatile double slots;

        volatile double used;

        volatile double frozen;
    }
}
