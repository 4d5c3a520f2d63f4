package dev.waitroom.coordinator.admission;

import java.time.Instant;
import java.util.UUID;

/** A grant row. {@code visitor} is personal data: it never appears in logs ({@link #toString()} omits it). */
public record Grant(UUID id, String eventId, String visitor, String entryId, long orderKey, long generation,
		GrantState state, Instant offeredAt, Instant offerExpiresAt, UUID sessionId, Instant activatedAt,
		Instant sessionExpiresAt, Instant absoluteExpiresAt, Instant purchasedAt, Instant releasedAt,
		ReleaseReason releaseReason, GrantState queueSyncedState) {

	@Override
	public String toString() {
		return "Grant[id=" + this.id + ", event=" + this.eventId + ", state=" + this.state + ", generation="
				+ this.generation + "]";
	}

}
