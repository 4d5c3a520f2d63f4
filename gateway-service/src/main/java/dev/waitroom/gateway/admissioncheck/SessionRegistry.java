package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.tokens.AdmissionClaims;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Reads the coordinator's live-session registry ({@link RedisKeys#session}, value the sale generation;
 * docs/reference/contracts.md). Sessions this instance has seen live are remembered until
 * their token expires, so that while Redis is unreachable existing sessions continue and only
 * never-seen ones are refused.
 */
@Component
class SessionRegistry {

    private static final int MAX_REMEMBERED = 200_000;

    private final ReactiveStringRedisTemplate redis;

    private final Clock clock;

    private final EdgeProperties edge;

    private final ConcurrentHashMap<String, Instant> seenLive = new ConcurrentHashMap<>();

    SessionRegistry(ReactiveStringRedisTemplate redis, Clock clock, EdgeProperties edge) {
        this.redis = redis;
        this.clock = clock;
        this.edge = edge;
    }

    /** The registry key of the session (the contract's format, which the coordinator writes). */
    static String key(String eventId, String sessionId) {
        return RedisKeys.session(EventId.of(eventId), sessionId);
    }

    Mono<Liveness> liveness(AdmissionClaims claims) {
        String key = key(claims.eventId(), claims.sessionId());
        return redis.opsForValue()
                .get(key)
                .map(generation ->
                        generation.equals(Long.toString(claims.saleGeneration())) ? Liveness.LIVE : Liveness.ENDED)
                .defaultIfEmpty(Liveness.ENDED)
                .timeout(edge.redisTimeout())
                .doOnNext(liveness -> remember(key, claims, liveness))
                .onErrorResume(error -> Mono.just(rememberedLive(key) ? Liveness.LIVE : Liveness.UNKNOWN));
    }

    private void remember(String key, AdmissionClaims claims, Liveness liveness) {
        if (liveness == Liveness.LIVE) {
            if (seenLive.size() >= MAX_REMEMBERED) {
                Instant now = clock.instant();
                seenLive.values().removeIf(until -> !until.isAfter(now));
            }
            if (seenLive.size() < MAX_REMEMBERED) {
                seenLive.put(key, claims.expiresAt());
            }
        } else {
            seenLive.remove(key);
        }
    }

    private boolean rememberedLive(String key) {
        Instant until = seenLive.get(key);
        return until != null && until.isAfter(clock.instant());
    }
}
