package dev.waitroom.coordinator.integration.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.coordinator.integration.IntegrationCredential;
import dev.waitroom.coordinator.integration.IntegrationCredentials;
import java.net.URI;
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
 * The ops API for an event's integration credentials (docs/integration/shop-signals.md): create (the secret is in
 * this answer only), list, revoke. Behind the ops token like all of {@code /admin}; the web kit audits every call.
 */
@RestController
@RequestMapping("/admin/events/{eventId}/integration-credentials")
class IntegrationCredentialsController {

    private final IntegrationCredentials credentials;

    IntegrationCredentialsController(IntegrationCredentials credentials) {
        this.credentials = credentials;
    }

    /** Body of a creation; optional as a whole. */
    record CreateBody(String label) {}

    /** A credential as ops see it; {@code secret} only in the answer that created it. */
    record CredentialView(
            String credentialId,
            String eventId,
            String label,
            String state,
            Instant createdAt,
            String createdBy,
            Instant revokedAt,
            String revokedBy,
            Instant lastUsedAt,
            String secret) {

        static CredentialView of(IntegrationCredential c, String secret) {
            return new CredentialView(
                    c.credentialId(),
                    c.eventId().value(),
                    c.label(),
                    c.state().name(),
                    c.createdAt(),
                    c.createdBy(),
                    c.revokedAt(),
                    c.revokedBy(),
                    c.lastUsedAt(),
                    secret);
        }
    }

    @PostMapping
    ResponseEntity<CredentialView> create(
            @PathVariable String eventId, @RequestBody(required = false) CreateBody body, Operator operator) {
        EventId id = EventId.of(eventId);
        IntegrationCredentials.Created created =
                this.credentials.create(id, body == null ? null : body.label(), operator.name());
        return ResponseEntity.created(URI.create("/admin/events/" + id.value() + "/integration-credentials/"
                        + created.credential().credentialId()))
                // the secret is in this body only: never kept by a cache on the way
                .cacheControl(CacheControl.noStore())
                .body(CredentialView.of(created.credential(), created.secret().text()));
    }

    @GetMapping
    List<CredentialView> list(@PathVariable String eventId) {
        return this.credentials.list(EventId.of(eventId)).stream()
                .map(c -> CredentialView.of(c, null))
                .toList();
    }

    @DeleteMapping("/{credentialId}")
    CredentialView revoke(@PathVariable String eventId, @PathVariable String credentialId, Operator operator) {
        return CredentialView.of(this.credentials.revoke(EventId.of(eventId), credentialId, operator.name()), null);
    }
}
