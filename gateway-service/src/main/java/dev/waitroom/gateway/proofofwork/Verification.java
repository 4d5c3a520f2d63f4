package dev.waitroom.gateway.proofofwork;

import java.time.Instant;

/** What a join's solution proved, before the replay check. */
sealed interface Verification {

    /**
     * A correct, unexpired solution of a challenge the gateway issued for this event.
     *
     * @param replayKey what identifies the challenge among every gateway instance (its hash)
     * @param expiresAt after this the solution is refused anyway, so it need not be remembered longer
     */
    record Solved(String replayKey, Instant expiresAt) implements Verification {}

    /** Refused: {@code reason} is for the metric's and the log's reader, never personal data. */
    record Refused(String reason) implements Verification {}
}
