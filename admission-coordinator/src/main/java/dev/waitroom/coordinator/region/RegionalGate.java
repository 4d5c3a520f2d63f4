package dev.waitroom.coordinator.region;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * This coordinator's admission gate as a region of a regional deployment sees it (docs/operating/regions.md): the region it is
 * the gate of, the draw of its own queue, and the renewal of its budget in the ledger (reconciling the budgets of
 * stopped regions first). The central gate of a single-region deployment draws through the event and holds no budget.
 */
@Component
public class RegionalGate {

    private static final Logger log = LoggerFactory.getLogger(RegionalGate.class);

    private final Region region;

    private final RegionBudgets budgets;

    private final RegionGauges gauges;

    private final Duration grace;

    private final Admissions admissions;

    private final QueueDirectory queue;

    private final EventManagement management;

    RegionalGate(
            Region region,
            RegionBudgets budgets,
            RegionGauges gauges,
            RegionProperties properties,
            Admissions admissions,
            QueueDirectory queue,
            EventManagement management) {
        this.region = region;
        this.budgets = budgets;
        this.gauges = gauges;
        this.grace = properties.grace();
        this.admissions = admissions;
        this.queue = queue;
        this.management = management;
        if (region.regional()) {
            log.info("Admission gate of region {}: offers within the budget it leases from the ledger", region);
        }
    }

    public Region region() {
        return this.region;
    }

    /** True for a named region's gate, which offers only within its budget and after its own queue's draw. */
    public boolean regional() {
        return this.region.regional();
    }

    /**
     * Runs the pre-sale draw of this region's queue ({@link EventManagement#drawQueue}) even when another region's gate
     * has already drawn its queue, and records it: the seed is revealed once every region's queue has drawn
     * ({@link EventManagement#queueDrawn}). {@link QueueDraw#PENDING} while the queue cannot draw yet.
     */
    public QueueDraw drawHere(Event event) {
        try {
            this.management.drawQueue(event);
            this.management.queueDrawn(event);
            log.info("Event {}: pre-sale draw of region {}'s queue completed", event.id(), this.region);
            return QueueDraw.DRAWN;
        } catch (CoordinatorException ex) {
            log.warn("Event {}: draw of region {}'s queue pending: {}", event.id(), this.region, ex.getMessage());
            return QueueDraw.PENDING;
        }
    }

    /**
     * At each renewal of the gate's lease: ends the overdue grants of frozen regions and shrinks their budgets
     * (reconciliation), then renews this region's budget by the rule, reporting its queue's waiting count.
     * {@link Allowance#NONE} when fenced off (the region's lease is not {@code owner}'s with {@code generation}).
     */
    public Allowance renew(EventId id, String owner, FencingGeneration generation) {
        RegionBudgets.Ledger ledger = this.budgets.read(id, this.grace);
        boolean shrink = false;
        for (RegionBudgets.Budget budget : ledger.budgets()) {
            if (budget.frozen() && !budget.region().equals(this.region)) {
                if (budget.live() > 0) {
                    this.admissions.expireFrozenRegion(id, budget.region());
                }
                shrink |= budget.slots() > 0;
            }
        }
        if (shrink) {
            List<Region> reconciled = this.budgets.reconcileFrozen(this.region, id, this.grace);
            if (!reconciled.isEmpty()) {
                log.info("Event {}: budgets of stopped regions {} reconciled to their live grants", id, reconciled);
            }
            ledger = this.budgets.read(id, this.grace);
        }
        this.gauges.update(id, ledger);
        long waiting;
        try {
            waiting = this.queue.counts(id).waiting();
        } catch (CoordinatorException ex) {
            waiting = ledger.of(this.region).map(RegionBudgets.Budget::waiting).orElse(0L);
        }
        Optional<RegionBudgets.Renewal> renewal =
                this.budgets.renew(this.region, id, owner, generation, waiting, this.grace);
        if (renewal.isEmpty()) {
            log.info("Event {}: budget of region {} not renewed (fenced off)", id, this.region);
            return Allowance.NONE;
        }
        return new Allowance.Leased(renewal.get().slots(), renewal.get().share());
    }
}
