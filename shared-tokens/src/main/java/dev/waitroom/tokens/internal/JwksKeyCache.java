package dev.waitroom.tokens.internal;

import com.nimbusds.jose.JOSEException;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.crypto.Ed25519Verifier;
import com.nimbusds.jose.jwk.Curve;
import com.nimbusds.jose.jwk.JWK;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.KeyUse;
import com.nimbusds.jose.jwk.OctetKeyPair;
import dev.waitroom.tokens.JwksSource;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.text.ParseException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The verifier's copy of the published Ed25519 keys. Reads are lock-free; a refresh happens when a
 * kid is unknown or the copy is older than {@code maxAge}, at most once per {@code minInterval}
 * (so random kids cannot hammer the source; {@code failureBackoff} after a failed attempt), and a
 * failed refresh keeps the last good keys. A refresh that no longer finds a kid tells
 * {@code onRemoved}, so the verifier can drop what it cached under that kid.
 * Not API: may change without notice.
 */
public final class JwksKeyCache {

    private static final System.Logger LOG = System.getLogger(JwksKeyCache.class.getName());

    private final JwksSource source;
    private final Clock clock;
    private final Duration minInterval;
    private final Duration failureBackoff;
    private final Duration maxAge;
    private final Consumer<Set<String>> onRemoved;
    private final ReentrantLock refreshLock = new ReentrantLock();
    private volatile Snapshot snapshot = new Snapshot(Map.of(), null);
    private Instant lastAttempt; // guarded by refreshLock
    private boolean lastAttemptFailed; // guarded by refreshLock

    public JwksKeyCache(JwksSource source, Clock clock, Duration minInterval, Duration maxAge) {
        this(source, clock, minInterval, minInterval, maxAge, removed -> {});
    }

    public JwksKeyCache(
            JwksSource source,
            Clock clock,
            Duration minInterval,
            Duration failureBackoff,
            Duration maxAge,
            Consumer<Set<String>> onRemoved) {
        this.source = Objects.requireNonNull(source, "source");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.minInterval = Objects.requireNonNull(minInterval, "minInterval");
        this.failureBackoff = Objects.requireNonNull(failureBackoff, "failureBackoff");
        this.maxAge = Objects.requireNonNull(maxAge, "maxAge");
        this.onRemoved = Objects.requireNonNull(onRemoved, "onRemoved");
    }

    /** The verifier for {@code kid}, or null when it is not published (after any refresh allowed now). */
    public Ed25519Verifier find(String kid) {
        Snapshot current = snapshot;
        Ed25519Verifier verifier = current.keys.get(kid);
        Instant now = clock.instant();
        if (verifier != null) {
            if (isStale(current, now) && refreshLock.tryLock()) {
                // someone else refreshing is fine: the key we have is still good to use meanwhile
                try {
                    refreshIfAllowed(now);
                } finally {
                    refreshLock.unlock();
                }
                Ed25519Verifier refreshed = snapshot.keys.get(kid);
                return snapshot == current ? verifier : refreshed;
            }
            return verifier;
        }
        refreshLock.lock();
        try {
            if (snapshot == current) {
                refreshIfAllowed(clock.instant());
            }
        } finally {
            refreshLock.unlock();
        }
        return snapshot.keys.get(kid);
    }

    /**
     * Whether {@code kid} is still published as far as this copy knows: the check a cached verification passes on
     * every use. A stale copy is refreshed first by the one caller that gets the lock (the others answer from the copy
     * they have), so a key removed at the source is refused within {@code maxAge} of its removal.
     */
    public boolean isPublished(String kid, Instant now) {
        Snapshot current = snapshot;
        if (isStale(current, now) && refreshLock.tryLock()) {
            try {
                if (snapshot == current) {
                    refreshIfAllowed(now);
                }
            } finally {
                refreshLock.unlock();
            }
            current = snapshot;
        }
        return current.keys.containsKey(kid);
    }

    /** How many keys are currently trusted (for metrics and tests). */
    public int size() {
        return snapshot.keys.size();
    }

    private boolean isStale(Snapshot current, Instant now) {
        return current.fetchedAt == null || !now.isBefore(current.fetchedAt.plus(maxAge));
    }

    private void refreshIfAllowed(Instant now) {
        Duration wait = lastAttemptFailed ? failureBackoff : minInterval;
        if (lastAttempt != null && now.isBefore(lastAttempt.plus(wait))) {
            return;
        }
        Instant previousAttempt = lastAttempt;
        lastAttempt = now;
        try {
            String json = source.fetch();
            Map<String, Ed25519Verifier> keys = parse(json);
            if (keys.isEmpty()) {
                lastAttemptFailed = true;
                LOG.log(System.Logger.Level.WARNING, "JWKS had no usable Ed25519 key; keeping the last good keys");
                return;
            }
            lastAttemptFailed = false;
            Snapshot previous = snapshot;
            snapshot = new Snapshot(Map.copyOf(keys), now);
            Set<String> removed = new HashSet<>(previous.keys.keySet());
            removed.removeAll(keys.keySet());
            if (!removed.isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "JWKS no longer publishes {0}; their tokens are refused", removed);
                onRemoved.accept(Set.copyOf(removed));
            }
        } catch (InterruptedIOException e) {
            // the caller was interrupted (a cancelled request's thread): that says nothing of the source, so no
            // back-off; the next caller that needs the keys reads them at once
            lastAttempt = previousAttempt;
            Thread.currentThread().interrupt();
        } catch (IOException | ParseException | RuntimeException e) {
            lastAttemptFailed = true;
            LOG.log(
                    System.Logger.Level.WARNING,
                    "JWKS refresh failed ({0}: {1}); keeping {2} last good keys",
                    e.getClass().getSimpleName(),
                    e.getMessage(),
                    snapshot.keys.size());
        }
    }

    private static Map<String, Ed25519Verifier> parse(String json) throws ParseException {
        if (json == null) {
            throw new ParseException("no JWKS", 0);
        }
        Map<String, Ed25519Verifier> keys = new HashMap<>();
        for (JWK jwk : JWKSet.parse(json).getKeys()) {
            if (!(jwk instanceof OctetKeyPair okp) || !Curve.Ed25519.equals(okp.getCurve())) {
                continue;
            }
            String kid = okp.getKeyID();
            if (kid == null || !Ed25519Keys.KEY_ID.matcher(kid).matches()) {
                continue;
            }
            if (okp.getAlgorithm() != null && !JWSAlgorithm.EdDSA.equals(okp.getAlgorithm())) {
                continue;
            }
            if (okp.getKeyUse() != null && !KeyUse.SIGNATURE.equals(okp.getKeyUse())) {
                continue;
            }
            try {
                keys.put(kid, new Ed25519Verifier(okp.toPublicJWK()));
            } catch (JOSEException e) {
                // an unusable key is skipped; the others still count
            }
        }
        return keys;
    }

    private record Snapshot(Map<String, Ed25519Verifier> keys, Instant fetchedAt) {}
}
