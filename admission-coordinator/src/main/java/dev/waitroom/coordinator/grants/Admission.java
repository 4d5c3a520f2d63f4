package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;

/**
 * A live shopping session and a fresh admission token for it; {@code visitor} is the identity the session is bound to
 * (since the claim). {@link #toString()} hides the token and the visitor.
 */
public record Admission(
        SessionId sessionId,
        VisitorId visitor,
        EventId eventId,
        GrantState state,
        Instant expiresAt,
        Instant absoluteExpiresAt,
        String token) {

    @Override
    public String toString() {
        return "Admission[session=" + this.sessionId + ", event=" + this.eventId + ", expiresAt=" + this.expiresAt
                + "]";
    }
}
