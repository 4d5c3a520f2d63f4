package dev.waitroom.coordinator.passes;

import dev.waitroom.contract.EventId;
import java.time.Instant;

/**
 * A pass as stored, without its secret: who holds it ({@code holder}, a label ops chose), until when, how many sessions
 * it may open and has opened, who issued and who revoked it.
 */
public record Pass(
        String passId,
        EventId eventId,
        String holder,
        int maxUses,
        int uses,
        Instant expiresAt,
        Instant createdAt,
        String createdBy,
        Instant revokedAt,
        String revokedBy,
        String revokeReason) {

    /** What the pass can do at {@code now}. */
    public PassState stateAt(Instant now) {
        if (this.revokedAt != null) {
            return PassState.REVOKED;
        }
        if (!this.expiresAt.isAfter(now)) {
            return PassState.EXPIRED;
        }
        return this.uses >= this.maxUses ? PassState.USED_UP : PassState.VALID;
    }
}
