package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import java.time.Clock;
import java.time.Duration;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import reactor.core.publisher.Mono;

/**
 * The solutions already used, shared by every gateway instance: one Redis key per used challenge
 * ({@code wr:{eventId}:pow:<first 32 hex digits of the challenge>}), written with {@code SET NX PX} and kept until
 * the challenge expires (a later use is refused as expired anyway). The first {@code SET} wins, so of any number of
 * concurrent uses exactly one goes through.
 */
class SpentSolutions {

    /** 128 bits of the challenge hash name it well enough, at half the memory. */
    private static final int KEY_HEX_DIGITS = 32;

    /** Gateway clocks may differ a little: the record outlives the expiry by this much. */
    private static final Duration CLOCK_SLACK = Duration.ofSeconds(5);

    private final ReactiveStringRedisTemplate redis;

    private final Clock clock;

    private final Duration timeout;

    /** @param timeout the time budget of one Redis call (the gateway's {@code redis-timeout}) */
    SpentSolutions(ReactiveStringRedisTemplate redis, Clock clock, Duration timeout) {
        this.redis = redis;
        this.clock = clock;
        this.timeout = timeout;
    }

    /**
     * Records the solution as used. True for its first use, false when it was used already; an error (Redis
     * unreachable or slow) when nothing can be said, so the caller fails closed.
     */
    Mono<Boolean> spend(EventId event, Verification.Solved solved) {
        Duration ttl = Duration.between(clock.instant(), solved.expiresAt()).plus(CLOCK_SLACK);
        return redis.opsForValue()
                .setIfAbsent(key(event, solved), "1", ttl)
                .timeout(timeout)
                .defaultIfEmpty(false);
    }

    /**
     * Gives a solution back when the join it let through created nothing (the queue-service answered 503 or 429), so
     * the page retries with it; best effort: a failure leaves it spent, and the page solves a new challenge.
     */
    Mono<Void> giveBack(EventId event, Verification.Solved solved) {
        return redis.delete(key(event, solved))
                .timeout(timeout)
                .onErrorResume(error -> Mono.just(0L))
                .then();
    }

    static String key(EventId event, Verification.Solved solved) {
        String challenge = solved.replayKey();
        return RedisKeys.eventPrefix(event) + "pow:"
                + challenge.substring(0, Math.min(KEY_HEX_DIGITS, challenge.length()));
    }
}
