package dev.waitroom.coordinator.admission;

import dev.waitroom.coordinator.ids.SessionId;
import java.time.Instant;

/** A live shopping session and a fresh admission token for it. {@link #toString()} hides the token. */
public record Admission(
        SessionId sessionId,
        String eventId,
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
