package dev.waitroom.coordinator.admission;

import java.time.Instant;
import java.util.UUID;

/**
 * The live-session registry the gateway reads (CONTRACTS: key {@code wr:{eventId}:session:<sessionId>}, value the
 * sale generation, expiring with the session). Implementations throw {@link RegistryUnavailableException} when the
 * store cannot be reached.
 */
public interface SessionRegistry {

	/** Marks the session live until {@code expiresAt}; false if it has been released (it then stays not live). */
	boolean admit(String eventId, UUID sessionId, long saleGeneration, Instant expiresAt);

	/** Makes the session not live, for good. Called before its capacity returns. */
	void remove(String eventId, UUID sessionId, Instant keepTombstoneUntil);

	boolean isLive(String eventId, UUID sessionId);

	/** Whether the store answers now (new admissions fail closed when it does not). */
	boolean available();

}
