package dev.waitroom.coordinator.admission;

import java.time.Instant;
import java.util.UUID;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.ids.SessionId;

/**
 * The live-session registry the gateway reads (CONTRACTS: key {@code RedisKeys.session}, value the sale generation,
 * expiring with the session). Implementations throw {@link RegistryUnavailableException} when the
 * store cannot be reached.
 */
public interface SessionRegistry {

	/** Marks the session live until {@code expiresAt}; false if it has been released (it then stays not live). */
	boolean admit(EventId eventId, SessionId sessionId, long saleGeneration, Instant expiresAt);

	/** Makes the session not live, for good. Called before its capacity returns. */
	void remove(EventId eventId, SessionId sessionId, Instant keepTombstoneUntil);

	boolean isLive(EventId eventId, SessionId sessionId);

	/** Whether the store answers now (new admissions fail closed when it does not). */
	boolean available();

	// The three below serve SessionRegistryTopologyScenarios, which still passes raw UUIDs and is not ours to edit
	// (issue 14); they go once it passes SessionId.

	default boolean admit(String eventId, UUID sessionId, long saleGeneration, Instant expiresAt) {
		return admit(EventId.of(eventId), new SessionId(sessionId), saleGeneration, expiresAt);
	}

	default void remove(String eventId, UUID sessionId, Instant keepTombstoneUntil) {
		remove(EventId.of(eventId), new SessionId(sessionId), keepTombstoneUntil);
	}

	default boolean isLive(String eventId, UUID sessionId) {
		return isLive(EventId.of(eventId), new SessionId(sessionId));
	}

}
