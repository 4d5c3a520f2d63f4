package dev.waitroom.tokens;

import dev.waitroom.tokens.internal.AdmissionJwtParser;
import dev.waitroom.tokens.internal.JwksKeyCache;
import dev.waitroom.tokens.internal.VerifiedTokenCache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Verifies admission tokens against the keys of a {@link JwksSource}. Thread-safe; share one per
 * process. The first call and a call with an unknown {@code kid} may block on the source (at most
 * one fetch per 5 s), so reactive callers should verify on a bounded-elastic thread.
 *
 * <p>Successful verifications are cached (bounded, keyed by the token's SHA-256, each entry living
 * until the token's {@code exp} plus skew); event and generation are checked on every call, cached
 * or not. Rejections are never cached. A {@code gen} newer than {@code currentSaleGeneration} is
 * accepted: the caller's view of the generation may lag the coordinator's.
 */
public final class AdmissionTokenVerifier {

    public static final Duration DEFAULT_SKEW = Duration.ofSeconds(30);
    public static final int DEFAULT_CACHE_SIZE = 100_000;
    static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(5);
    static final Duration MAX_KEY_AGE = Duration.ofMinutes(5);

    private final Clock clock;
    private final Duration skew;
    private final JwksKeyCache keys;
    private final VerifiedTokenCache<AdmissionClaims> cache;

    private AdmissionTokenVerifier(Clock clock, Duration skew, JwksKeyCache keys, int cacheSize) {
        this.clock = clock;
        this.skew = skew;
        this.keys = keys;
        this.cache = new VerifiedTokenCache<>(cacheSize);
    }

    /** Skew 30 s, cache of 100 000 tokens. */
    public static AdmissionTokenVerifier of(JwksSource source, Clock clock) {
        return of(source, clock, DEFAULT_SKEW, DEFAULT_CACHE_SIZE);
    }

    public static AdmissionTokenVerifier of(JwksSource source, Clock clock, Duration skew, int cacheSize) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(skew, "skew");
        if (skew.isNegative() || skew.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("skew must be between 0 and 5 minutes");
        }
        return new AdmissionTokenVerifier(
                clock, skew, new JwksKeyCache(source, clock, MIN_REFRESH_INTERVAL, MAX_KEY_AGE), cacheSize);
    }

    /**
     * The claims of a valid, unexpired token for {@code expectedEventId} whose generation is not older
     * than {@code currentSaleGeneration}. Whether the session is still live is the caller's check.
     */
    public AdmissionClaims verify(String token, String expectedEventId, long currentSaleGeneration)
            throws TokenRejectedException {
        Objects.requireNonNull(expectedEventId, "expectedEventId");
        Instant now = clock.instant();
        if (token != null && token.length() > AdmissionJwtParser.MAX_TOKEN_CHARS) {
            throw new TokenRejectedException(
                    RejectionReason.TOO_LARGE, "longer than " + AdmissionJwtParser.MAX_TOKEN_CHARS + " characters");
        }
        VerifiedTokenCache.TokenHash hash = token == null ? null : VerifiedTokenCache.hash(token);
        AdmissionClaims cached = hash == null ? null : cache.get(hash, now);
        if (cached != null) {
            checkEventAndGeneration(cached, expectedEventId, currentSaleGeneration);
            return cached;
        }
        AdmissionClaims claims = AdmissionJwtParser.parseAndVerify(token, keys::find, now, skew, skew);
        checkEventAndGeneration(claims, expectedEventId, currentSaleGeneration);
        cache.put(hash, claims, claims.expiresAt().plus(skew), now);
        return claims;
    }

    /**
     * Like {@link #verify} but also accepts a token that expired at most {@code maxExpiredFor} (plus
     * skew) ago, and ignores the sale generation: for reading an order's status after the shopping
     * session ended. Never grants shopping.
     */
    public AdmissionClaims verifyAllowingExpired(String token, String expectedEventId, Duration maxExpiredFor)
            throws TokenRejectedException {
        Objects.requireNonNull(expectedEventId, "expectedEventId");
        Objects.requireNonNull(maxExpiredFor, "maxExpiredFor");
        if (maxExpiredFor.isNegative()) {
            throw new IllegalArgumentException("maxExpiredFor must not be negative");
        }
        Instant now = clock.instant();
        if (token != null && token.length() > AdmissionJwtParser.MAX_TOKEN_CHARS) {
            throw new TokenRejectedException(
                    RejectionReason.TOO_LARGE, "longer than " + AdmissionJwtParser.MAX_TOKEN_CHARS + " characters");
        }
        AdmissionClaims claims = token == null ? null : cache.get(VerifiedTokenCache.hash(token), now);
        if (claims == null) {
            claims = AdmissionJwtParser.parseAndVerify(token, keys::find, now, skew, skew.plus(maxExpiredFor));
        }
        if (!claims.eventId().equals(expectedEventId)) {
            throw new TokenRejectedException(RejectionReason.WRONG_EVENT, "token is for another event");
        }
        return claims;
    }

    /** Number of cached verified tokens (for metrics). */
    public int cachedTokens() {
        return cache.size();
    }

    private static void checkEventAndGeneration(AdmissionClaims claims, String expectedEventId, long generation) {
        if (!claims.eventId().equals(expectedEventId)) {
            throw new TokenRejectedException(RejectionReason.WRONG_EVENT, "token is for another event");
        }
        if (claims.saleGeneration() < generation) {
            throw new TokenRejectedException(RejectionReason.OLD_GENERATION, "token is from an older sale generation");
        }
    }
}
