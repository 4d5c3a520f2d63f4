package dev.waitroom.tokens;

import com.nimbusds.jose.crypto.Ed25519Verifier;
import dev.waitroom.tokens.internal.AdmissionJwtParser;
import dev.waitroom.tokens.internal.JwksKeyCache;
import dev.waitroom.tokens.internal.ModeStatementParser;
import dev.waitroom.tokens.internal.VerifiedTokenCache;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * Verifies admission tokens against the keys of a {@link JwksSource}. Thread-safe; share one per
 * process. The first call, a call with an unknown {@code kid} and the first call after the key copy
 * aged past the key refresh interval may block on the source (at most one fetch per second, one per
 * 5 s while the source fails), so reactive callers should verify on a bounded-elastic thread.
 *
 * <p>Successful verifications are cached (bounded, keyed by the token's SHA-256, each entry living
 * until the token's {@code exp} plus skew, and only while its key is still published: every hit checks
 * that, so a key removed from the JWKS, by rotation or an emergency revoke, stops its cached tokens
 * within the key refresh interval, default {@value #DEFAULT_KEY_REFRESH_SECONDS} s); event and
 * generation are checked on every call, cached or not. Rejections are never cached. A {@code gen}
 * newer than {@code currentSaleGeneration} is accepted: the caller's view of the generation may lag
 * the coordinator's.
 */
public final class AdmissionTokenVerifier {

    public static final Duration DEFAULT_SKEW = Duration.ofSeconds(30);
    public static final int DEFAULT_CACHE_SIZE = 100_000;
    /** How often a verifier in use reads the JWKS again, so a removed key is refused within this time. */
    public static final long DEFAULT_KEY_REFRESH_SECONDS = 5;

    public static final Duration DEFAULT_KEY_REFRESH = Duration.ofSeconds(DEFAULT_KEY_REFRESH_SECONDS);
    /**
     * The clock difference tolerated on a {@link ModeStatement}: small, since it lengthens the time a replayed
     * statement works.
     */
    public static final Duration MODE_STATEMENT_SKEW = Duration.ofSeconds(5);

    static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(1);
    static final Duration FAILURE_BACKOFF = Duration.ofSeconds(5);

    private final Clock clock;
    private final Duration skew;
    private final JwksKeyCache keys;
    private final VerifiedTokenCache<Verified> cache;

    private AdmissionTokenVerifier(JwksSource source, Clock clock, Duration skew, Duration keyRefresh, int cacheSize) {
        this.clock = clock;
        this.skew = skew;
        this.cache = new VerifiedTokenCache<>(cacheSize);
        this.keys = new JwksKeyCache(
                source,
                clock,
                MIN_REFRESH_INTERVAL,
                FAILURE_BACKOFF,
                keyRefresh,
                removed -> cache.removeIf(verified -> removed.contains(verified.keyId())));
    }

    /** Skew 30 s, cache of 100 000 tokens, keys read again every 5 s while in use. */
    public static AdmissionTokenVerifier of(JwksSource source, Clock clock) {
        return of(source, clock, DEFAULT_SKEW, DEFAULT_CACHE_SIZE);
    }

    /** Keys read again every 5 s while in use. */
    public static AdmissionTokenVerifier of(JwksSource source, Clock clock, Duration skew, int cacheSize) {
        return of(source, clock, skew, cacheSize, DEFAULT_KEY_REFRESH);
    }

    /**
     * @param keyRefresh how old the copy of the JWKS may grow before a verification reads it again (1 s to 10 min):
     *                   a key removed from the JWKS is refused, cached tokens included, within this time
     */
    public static AdmissionTokenVerifier of(
            JwksSource source, Clock clock, Duration skew, int cacheSize, Duration keyRefresh) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(skew, "skew");
        Objects.requireNonNull(keyRefresh, "keyRefresh");
        if (skew.isNegative() || skew.compareTo(Duration.ofMinutes(5)) > 0) {
            throw new IllegalArgumentException("skew must be between 0 and 5 minutes");
        }
        if (keyRefresh.compareTo(MIN_REFRESH_INTERVAL) < 0 || keyRefresh.compareTo(Duration.ofMinutes(10)) > 0) {
            throw new IllegalArgumentException("keyRefresh must be between 1 second and 10 minutes");
        }
        return new AdmissionTokenVerifier(source, clock, skew, keyRefresh, cacheSize);
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
        AdmissionClaims cached = hash == null ? null : cached(hash, now);
        if (cached != null) {
            checkEventAndGeneration(cached, expectedEventId, currentSaleGeneration);
            return cached;
        }
        KeyCapture lookup = new KeyCapture(keys);
        AdmissionClaims claims = AdmissionJwtParser.parseAndVerify(token, lookup, now, skew, skew);
        checkEventAndGeneration(claims, expectedEventId, currentSaleGeneration);
        cache.put(hash, new Verified(claims, lookup.keyId), claims.expiresAt().plus(skew), now);
        return claims;
    }

    /**
     * Like {@link #verify} but also accepts a token that expired at most {@code maxExpiredFor} (plus
     * skew) ago, and ignores the sale generation: for reading an order's status after the shopping
     * session ended. Never grants shopping. A token whose key has left the JWKS is refused here too.
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
        AdmissionClaims claims = token == null ? null : cached(VerifiedTokenCache.hash(token), now);
        if (claims == null) {
            claims = AdmissionJwtParser.parseAndVerify(token, keys::find, now, skew, skew.plus(maxExpiredFor));
        }
        if (!claims.eventId().equals(expectedEventId)) {
            throw new TokenRejectedException(RejectionReason.WRONG_EVENT, "token is for another event");
        }
        return claims;
    }

    /**
     * The coordinator's statement of {@code expectedEventId}'s mode, when it verifies with the keys admission tokens
     * verify with (same JWKS, same strict header checks, its own {@code typ} and audience) and has not expired (skew
     * {@link #MODE_STATEMENT_SKEW}). Not cached: the caller keeps what it verified. May block on the key source like
     * {@link #verify}.
     */
    public ModeStatement verifyModeStatement(String statement, String expectedEventId) throws TokenRejectedException {
        Objects.requireNonNull(expectedEventId, "expectedEventId");
        return ModeStatementParser.parseAndVerify(
                statement, keys::find, expectedEventId, clock.instant(), MODE_STATEMENT_SKEW);
    }

    /** Number of cached verified tokens (for metrics). */
    public int cachedTokens() {
        return cache.size();
    }

    /** A cached verification whose key is still published, or null (an entry of a removed key is dropped). */
    private AdmissionClaims cached(VerifiedTokenCache.TokenHash hash, Instant now) {
        Verified verified = cache.get(hash, now);
        if (verified == null) {
            return null;
        }
        if (!keys.isPublished(verified.keyId(), now)) {
            cache.remove(hash, verified);
            return null; // verified again, and refused as UNKNOWN_KEY
        }
        return verified.claims();
    }

    private static void checkEventAndGeneration(AdmissionClaims claims, String expectedEventId, long generation) {
        if (!claims.eventId().equals(expectedEventId)) {
            throw new TokenRejectedException(RejectionReason.WRONG_EVENT, "token is for another event");
        }
        if (claims.saleGeneration() < generation) {
            throw new TokenRejectedException(RejectionReason.OLD_GENERATION, "token is from an older sale generation");
        }
    }

    /** A verification and the key that made it. */
    private record Verified(AdmissionClaims claims, String keyId) {}

    /** The key lookup of one verification, remembering which kid it was asked for. */
    private static final class KeyCapture implements AdmissionJwtParser.KeyLookup {
        private final JwksKeyCache keys;
        private String keyId;

        KeyCapture(JwksKeyCache keys) {
            this.keys = keys;
        }

        @Override
        public Ed25519Verifier find(String kid) {
            this.keyId = kid;
            return keys.find(kid);
        }
    }
}
