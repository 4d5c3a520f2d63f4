package dev.waitroom.coordinator.passes.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.coordinator.passes.Pass;
import dev.waitroom.coordinator.passes.Passes;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The ops API for an event's staff and partner passes (docs/operating/allow-rules-and-passes.md): issue (the pass is in
 * this answer only), list, revoke. Behind the ops token like all of {@code /admin}; issue and revoke are audited in
 * the event's audit with who and why.
 */
@RestController
@RequestMapping("/admin/events/{eventId}/passes")
class PassAdminController {

    private final Passes passes;

    private final Clock clock;

    PassAdminController(Passes passes, Clock clock) {
        this.passes = passes;
        this.clock = clock;
    }

    record IssueBody(String holder, Instant expiresAt, Integer maxUses, String reason) {}

    record RevokeBody(String reason) {}

    /** A pass as ops see it; {@code pass} only in the answer that issued it. */
    record PassView(
            String passId,
            String eventId,
            String holder,
            String state,
            int maxUses,
            int uses,
            Instant expiresAt,
            Instant createdAt,
            String createdBy,
            Instant revokedAt,
            String revokedBy,
            String revokeReason,
            String pass) {

        static PassView of(Pass p, Instant now, String secret) {
            return new PassView(
                    p.passId(),
                    p.eventId().value(),
                    p.holder(),
                    p.stateAt(now).name(),
                    p.maxUses(),
                    p.uses(),
                    p.expiresAt(),
                    p.createdAt(),
                    p.createdBy(),
                    p.revokedAt(),
                    p.revokedBy(),
                    p.revokeReason(),
                    secret);
        }
    }

    @PostMapping
    ResponseEntity<PassView> issue(
            @PathVariable String eventId, @RequestBody(required = false) IssueBody body, Operator operator) {
        EventId id = EventId.of(eventId);
        IssueBody b = body == null ? new IssueBody(null, null, null, null) : body;
        Passes.Issued issued =
                this.passes.issue(id, b.holder(), b.expiresAt(), b.maxUses(), operator.name(), b.reason());
        return ResponseEntity.created(URI.create("/admin/events/" + id.value() + "/passes/"
                        + issued.pass().passId()))
                // the pass is in this body only: never kept by a cache on the way
                .cacheControl(CacheControl.noStore())
                .body(PassView.of(
                        issued.pass(), this.clock.instant(), issued.secret().text()));
    }

    @GetMapping
    ResponseEntity<List<PassView>> list(@PathVariable String eventId) {
        Instant now = this.clock.instant();
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(this.passes.list(EventId.of(eventId)).stream()
                        .map(p -> PassView.of(p, now, null))
                        .toList());
    }

    @DeleteMapping("/{passId}")
    PassView revoke(
            @PathVariable String eventId,
            @PathVariable String passId,
            @RequestBody(required = false) RevokeBody body,
            Operator operator) {
        Pass revoked =
                this.passes.revoke(EventId.of(eventId), passId, operator.name(), body == null ? null : body.reason());
        return PassView.of(revoked, this.clock.instant(), null);
    }
}
