package dev.waitroom.coordinator.region.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.region.RegionBudgets;
import dev.waitroom.coordinator.region.RegionProperties;
import java.time.Instant;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The regions of an event in the ops API (docs/operating/regions.md): every region's budget, its use and its gate's lease, read
 * from the ledger on any coordinator; draining a region (no new budget) before maintenance, and resuming it. Both
 * changes are audited with the operator's name and reason.
 */
@RestController
@RequestMapping("/admin/events/{eventId}/regions")
class RegionAdminController {

    private static final int MAX_REASON = 500;

    private final EventManagement management;

    private final RegionBudgets budgets;

    private final RegionProperties properties;

    RegionAdminController(EventManagement management, RegionBudgets budgets, RegionProperties properties) {
        this.management = management;
        this.budgets = budgets;
        this.properties = properties;
    }

    @GetMapping
    ResponseEntity<RegionsView> regions(@PathVariable String eventId) {
        Event event = this.management.get(EventId.of(eventId));
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(view(event));
    }

    @PostMapping("/{region}/drain")
    RegionsView drain(
            @PathVariable String eventId,
            @PathVariable String region,
            @RequestBody(required = false) ReasonBody body,
            Operator operator) {
        return setDraining(eventId, region, true, body, operator);
    }

    @PostMapping("/{region}/resume")
    RegionsView resume(
            @PathVariable String eventId,
            @PathVariable String region,
            @RequestBody(required = false) ReasonBody body,
            Operator operator) {
        return setDraining(eventId, region, false, body, operator);
    }

    private RegionsView setDraining(
            String eventId, String region, boolean draining, ReasonBody body, Operator operator) {
        EventId id = EventId.of(eventId);
        Event event = this.management.get(id);
        if (!Region.valid(region)) {
            throw new CoordinatorException(
                    ProblemType.MALFORMED_REQUEST,
                    "a region name is 1 to 32 lowercase letters, digits and dashes, not starting or ending with a dash");
        }
        String reason = TextFields.required(
                ProblemType.MALFORMED_REQUEST, "reason", body == null ? null : body.reason(), MAX_REASON);
        Region named = new Region(region);
        boolean before = this.budgets.setDraining(id, named, draining);
        if (before != draining) {
            this.management.auditRegion(id, named, draining, operator.name(), reason);
        }
        return view(event);
    }

    private RegionsView view(Event event) {
        RegionBudgets.Ledger ledger = this.budgets.read(event.id(), this.properties.grace());
        return new RegionsView(
                event.id().value(),
                ledger.ceiling(),
                ledger.centralLive(),
                ledger.held(),
                ledger.budgets().stream().map(RegionView::of).toList());
    }

    record ReasonBody(String reason) {}

    /** The ledger of one event: what it holds of the ceiling in all, centrally, and per region. */
    record RegionsView(String event, int ceiling, long centralLive, long held, List<RegionView> regions) {}

    /**
     * One region: {@code slots} leased, {@code used} (live grants), the {@code waiting} count it last reported, its
     * lease's {@code generation} and {@code owner}, whether the lease is live, whether the budget is {@code frozen}
     * (lease expired more than the grace ago), whether it is {@code draining}, and when the budget lapses.
     */
    record RegionView(
            String region,
            int slots,
            long used,
            long waiting,
            long generation,
            String owner,
            boolean leaseLive,
            boolean draining,
            boolean frozen,
            Instant expiresAt) {

        static RegionView of(RegionBudgets.Budget b) {
            return new RegionView(
                    b.region().name(),
                    b.slots(),
                    b.live(),
                    b.waiting(),
                    b.generation(),
                    b.owner(),
                    b.leaseLive(),
                    b.draining(),
                    b.frozen(),
                    b.expiresAt());
        }
    }
}
