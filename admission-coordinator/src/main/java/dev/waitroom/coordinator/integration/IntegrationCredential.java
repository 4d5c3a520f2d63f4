package dev.waitroom.coordinator.integration;

import dev.waitroom.contract.EventId;
import java.time.Instant;

/**
 * One integration credential of an event, as ops see it (never its secret).
 *
 * @param credentialId the public part of {@code wric_<id>_<secret>}
 * @param label        what ops called it (which shop, which deployment), or null
 * @param lastUsedAt   when a signal last carried it (to the minute), or null if never
 */
public record IntegrationCredential(
        String credentialId,
        EventId eventId,
        String label,
        Instant createdAt,
        String createdBy,
        Instant revokedAt,
        String revokedBy,
        Instant lastUsedAt) {

    /** A credential is live until revoked; revoked is final. */
    public enum State {
        LIVE,
        REVOKED
    }

    public State state() {
        return revokedAt == null ? State.LIVE : State.REVOKED;
    }
}
