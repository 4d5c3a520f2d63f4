package dev.waitroom.coordinator.admission;

import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;

/**
 * A grant row. {@code sessionId} is null until the offer is claimed. {@code visitor} is personal data: it never
 * appears in logs ({@link #toString()} omits it).
 */
public record Grant(
        GrantId id,
        String eventId,
        VisitorId visitor,
        String entryId,
        long orderKey,
        FencingGeneration generation,
        GrantState state,
        Instant offeredAt,
        Instant offerExpiresAt,
        SessionId sessionId,
        Instant activatedAt,
        Instant sessionExpiresAt,
        Instant absoluteExpiresAt,
        Instant purchasedAt,
        Instant releasedAt,
        ReleaseReason releaseReason,
        GrantState queueSyncedState) {

    @Override
    public String toString() {
        return "Grant[id=" + this.id + ", event=" + this.eventId + ", state=" + this.state + ", generation="
                + this.generation.value() + "]";
    }
}
