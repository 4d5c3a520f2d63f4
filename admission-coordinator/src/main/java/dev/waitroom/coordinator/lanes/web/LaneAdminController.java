package dev.waitroom.coordinator.lanes.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.lanes.AccessCodes;
import dev.waitroom.coordinator.lanes.Lane;
import dev.waitroom.coordinator.lanes.LaneSet;
import dev.waitroom.coordinator.lanes.Lanes;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The ops API for an event's lanes and access codes (docs/operating/lanes-and-access-codes.md): declare the lanes
 * until the rules are published; issue codes per lane (the codes are in that answer only) and revoke a code or a
 * batch. Behind the ops token like all of {@code /admin}; every change is audited with who and why.
 */
@RestController
@RequestMapping("/admin/events/{eventId}/lanes")
class LaneAdminController {

    private final Lanes lanes;

    private final AccessCodes codes;

    private final EventManagement events;

    LaneAdminController(Lanes lanes, AccessCodes codes, EventManagement events) {
        this.lanes = lanes;
        this.codes = codes;
        this.events = events;
    }

    record LanesBody(List<LaneSet.LaneBody> lanes, String reason) {}

    record LaneView(String name, double share, AccessCodes.LaneCodes codes) {}

    record LanesView(String eventId, List<LaneView> lanes) {}

    record IssueBody(Integer count, Integer usesPerCode, Instant expiresAt, String reason) {}

    record IssuedView(
            String eventId, String lane, String batchId, int usesPerCode, Instant expiresAt, List<String> codes) {}

    record RevokeBody(String code, String reason) {}

    record RevokedView(String eventId, String lane, int revoked) {}

    @GetMapping
    LanesView list(@PathVariable String eventId) {
        EventId id = EventId.of(eventId);
        this.events.get(id);
        return view(id, this.lanes.of(id));
    }

    @PutMapping
    LanesView replace(@PathVariable String eventId, @RequestBody(required = false) LanesBody body, Operator operator) {
        EventId id = EventId.of(eventId);
        if (body == null || body.lanes() == null) {
            throw new CoordinatorException(
                    ProblemType.INVALID_LANES, "a body {\"lanes\": [{\"name\", \"share\"}], \"reason\"} is required");
        }
        LaneSet set = LaneSet.of(body.lanes());
        this.lanes.replace(id, set, operator.name(), body.reason());
        return view(id, set);
    }

    @PostMapping("/{lane}/codes")
    ResponseEntity<IssuedView> issue(
            @PathVariable String eventId,
            @PathVariable String lane,
            @RequestBody(required = false) IssueBody body,
            Operator operator) {
        EventId id = EventId.of(eventId);
        LaneName name = LaneName.of(lane);
        if (body == null || body.count() == null) {
            throw new CoordinatorException(ProblemType.INVALID_LANES, "count is required");
        }
        String reason = reason(body.reason());
        AccessCodes.Issued issued = this.codes.issue(
                id,
                name,
                body.count(),
                body.usesPerCode() == null ? 1 : body.usesPerCode(),
                body.expiresAt(),
                operator.name(),
                reason);
        return ResponseEntity.created(URI.create(
                        "/admin/events/" + id.value() + "/lanes/" + name.value() + "/codes/" + issued.batchId()))
                // the codes are in this body only: never kept by a cache on the way
                .cacheControl(CacheControl.noStore())
                .body(new IssuedView(
                        id.value(),
                        name.value(),
                        issued.batchId(),
                        issued.usesPerCode(),
                        issued.expiresAt(),
                        issued.codes()));
    }

    /** Revokes one code, named in the body (a code never travels in a URL). */
    @DeleteMapping("/{lane}/codes")
    RevokedView revokeCode(
            @PathVariable String eventId,
            @PathVariable String lane,
            @RequestBody(required = false) RevokeBody body,
            Operator operator) {
        EventId id = EventId.of(eventId);
        LaneName name = LaneName.of(lane);
        if (body == null || body.code() == null) {
            throw new CoordinatorException(
                    ProblemType.INVALID_LANES, "a body {\"code\", \"reason\"} names the code to revoke");
        }
        boolean revoked = this.codes.revokeCode(id, name, body.code(), operator.name(), reason(body.reason()));
        if (!revoked) {
            throw new CoordinatorException(ProblemType.CODE_INVALID, "The lane has no such live code.");
        }
        return new RevokedView(id.value(), name.value(), 1);
    }

    /** Revokes every live code of a batch. */
    @DeleteMapping("/{lane}/codes/{batchId}")
    RevokedView revokeBatch(
            @PathVariable String eventId,
            @PathVariable String lane,
            @PathVariable String batchId,
            @RequestBody(required = false) RevokeBody body,
            Operator operator) {
        EventId id = EventId.of(eventId);
        LaneName name = LaneName.of(lane);
        if (!batchId.matches("[0-9a-f]{16}")) {
            throw new CoordinatorException(ProblemType.NOT_FOUND, "No such batch of access codes.");
        }
        int revoked =
                this.codes.revokeBatch(id, name, batchId, operator.name(), reason(body == null ? null : body.reason()));
        return new RevokedView(id.value(), name.value(), revoked);
    }

    private LanesView view(EventId id, LaneSet set) {
        Map<LaneName, AccessCodes.LaneCodes> summary = this.codes.summary(id);
        List<LaneView> out = new ArrayList<>();
        for (Lane lane : set.all()) {
            out.add(new LaneView(
                    lane.name().value(),
                    lane.share(),
                    lane.name().isGeneral()
                            ? null
                            : summary.getOrDefault(lane.name(), new AccessCodes.LaneCodes(0, 0, 0, 0))));
        }
        return new LanesView(id.value(), out);
    }

    /** Every ops change is audited with why: one line of plain text (docs/design/security/input.md). */
    private static String reason(String reason) {
        return TextFields.required("reason", reason, EventManagement.MAX_REASON);
    }
}
