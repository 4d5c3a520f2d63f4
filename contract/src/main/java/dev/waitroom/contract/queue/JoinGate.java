package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;

/**
 * An event's protection of its join route (docs/design/abuse.md), set by ops on the event and carried from the coordinator
 * through the queue-service to the gateway's snapshot.
 *
 * @param maxJoinsPerSecond new entries the queue-service creates per second for the event, across every instance; a
 *        join beyond it creates nothing and answers 503 {@code joins-throttled} with {@code Retry-After}. 0: no ceiling
 * @param proofOfWorkDifficulty 0: no proof of work; otherwise the page solves an ALTCHA challenge whose secret number
 *        lies in 0..difficulty before its first join (on average difficulty / 2 SHA-256 hashes), and the gateway
 *        refuses a join without a fresh, unused solution
 */
public record JoinGate(double maxJoinsPerSecond, long proofOfWorkDifficulty) {

    /** No ceiling, no proof of work. */
    public static final JoinGate OPEN = new JoinGate(0, 0);

    /** The highest join ceiling accepted. */
    public static final double MAX_JOINS_PER_SECOND = 1_000_000;

    /** The highest difficulty accepted: about ten seconds of hashing in a slow phone's browser. */
    public static final long MAX_PROOF_OF_WORK_DIFFICULTY = 10_000_000;

    public JoinGate {
        if (!(maxJoinsPerSecond >= 0) || maxJoinsPerSecond > MAX_JOINS_PER_SECOND) {
            throw new MalformedValueException("maxJoinsPerSecond is 0 (no ceiling) .. " + (long) MAX_JOINS_PER_SECOND);
        }
        if (proofOfWorkDifficulty < 0 || proofOfWorkDifficulty > MAX_PROOF_OF_WORK_DIFFICULTY) {
            throw new MalformedValueException("proofOfWorkDifficulty is 0 (off) .. " + MAX_PROOF_OF_WORK_DIFFICULTY);
        }
    }

    /** From nullable wire values: missing is 0. */
    public static JoinGate of(Double maxJoinsPerSecond, Long proofOfWorkDifficulty) {
        return new JoinGate(
                maxJoinsPerSecond == null ? 0 : maxJoinsPerSecond,
                proofOfWorkDifficulty == null ? 0 : proofOfWorkDifficulty);
    }

    public boolean hasCeiling() {
        return maxJoinsPerSecond > 0;
    }

    public boolean requiresProofOfWork() {
        return proofOfWorkDifficulty > 0;
    }
}
