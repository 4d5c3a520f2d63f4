package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.ids.SessionId;
import java.time.Instant;

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
}
