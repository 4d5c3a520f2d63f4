package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.warmup.WarmupStep;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import tools.jackson.databind.json.JsonMapper;

/**
 * Proof-of-work before the gateway reports ready: a join challenge issued and its solution verified by
 * {@link JoinChallenges}, the checks a join through the proof-of-work gate costs, for a private
 * {@link EventId#warmUp()} event. A solution is never spent: the spent-solution store is in Redis, and the warm-up
 * writes nothing there.
 */
@Component
@Order(4) // only events with a proof-of-work gate
class ProofOfWorkWarmup implements WarmupStep {

    /** A few dozen hashes to solve: the warm-up exercises the server's checks, not the browser's work. */
    private static final long DIFFICULTY = 50;

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JoinChallenges challenges;
    private final EventId event = EventId.warmUp();

    ProofOfWorkWarmup(JoinChallenges challenges) {
        this.challenges = challenges;
    }

    @Override
    public String name() {
        return "proof of work";
    }

    @Override
    public void call(int iteration) throws Exception {
        JoinChallenge challenge = challenges.issue(event, DIFFICULTY);
        long number = solve(challenge);
        String header = Base64.getEncoder()
                .encodeToString(JSON.writeValueAsBytes(new JoinChallenges.Solution(
                        challenge.algorithm(),
                        challenge.challenge(),
                        number,
                        challenge.salt(),
                        challenge.signature())));
        if (!(challenges.verify(event, header) instanceof Verification.Solved)) {
            throw new IllegalStateException("the warm-up's own solution was refused");
        }
    }

    /** The browser's search: the number whose SHA-256 with the salt is the challenge. */
    private static long solve(JoinChallenge challenge) throws Exception {
        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        for (long n = 0; n <= challenge.maxnumber(); n++) {
            byte[] hash = sha256.digest((challenge.salt() + n).getBytes(StandardCharsets.UTF_8));
            if (HexFormat.of().formatHex(hash).equals(challenge.challenge())) {
                return n;
            }
        }
        throw new IllegalStateException("no solution up to " + challenge.maxnumber());
    }
}
