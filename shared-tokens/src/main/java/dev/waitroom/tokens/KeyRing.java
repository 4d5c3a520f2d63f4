package dev.waitroom.tokens;

import com.nimbusds.jose.jwk.OctetKeyPair;
import com.nimbusds.jose.util.JSONObjectUtils;
import dev.waitroom.tokens.internal.Ed25519Keys;
import java.text.ParseException;
import java.time.Clock;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The coordinator's Ed25519 signing keys. Immutable: every rotation step returns a new ring, which
 * the coordinator persists ({@link #toJson()}) before it uses it.
 *
 * <p>Rotation (see README): {@link #publishNext()}, wait until verifier caches have the new key,
 * {@link #activateNext()}, then once no token it signed can still be valid
 * {@link #retireOlderThan(Instant)} or {@link #removeRetired(Predicate)}. In an emergency
 * {@link #revoke(String)} unpublishes a key at once (and replaces it if it was signing).
 */
public final class KeyRing {

    private static final int FORMAT_VERSION = 1;

    private final Clock clock;
    private final List<RingKey> keys;

    private KeyRing(Clock clock, List<RingKey> keys) {
        this.clock = clock;
        this.keys = List.copyOf(keys);
        validate(this.keys);
    }

    /** A new ring with one ACTIVE key. */
    public static KeyRing generate(Clock clock) {
        Objects.requireNonNull(clock, "clock");
        Instant now = clock.instant();
        OctetKeyPair key = Ed25519Keys.generate();
        return new KeyRing(
                clock, List.of(new RingKey(new SigningKeyInfo(key.getKeyID(), KeyState.ACTIVE, now, now, null), key)));
    }

    /** Reads {@link #toJson()} output; later transitions are timed by the system UTC clock. */
    public static KeyRing fromJson(String privateJson) {
        return fromJson(privateJson, Clock.systemUTC());
    }

    /** Reads {@link #toJson()} output; later transitions are timed by {@code clock}. */
    public static KeyRing fromJson(String privateJson, Clock clock) {
        Objects.requireNonNull(privateJson, "privateJson");
        Objects.requireNonNull(clock, "clock");
        try {
            Map<String, Object> root = JSONObjectUtils.parse(privateJson);
            Long version = JSONObjectUtils.getLong(root, "version");
            if (version == null || version != FORMAT_VERSION) {
                throw new IllegalArgumentException("unsupported key ring format version " + version);
            }
            Map<String, Object>[] entries = JSONObjectUtils.getJSONObjectArray(root, "keys");
            if (entries == null) {
                throw new IllegalArgumentException("key ring JSON has no keys");
            }
            List<RingKey> keys = new ArrayList<>();
            for (Map<String, Object> entry : entries) {
                String kid = JSONObjectUtils.getString(entry, "kid");
                String state = JSONObjectUtils.getString(entry, "state");
                if (kid == null || state == null) {
                    throw new IllegalArgumentException("key without kid or state");
                }
                KeyState keyState = KeyState.valueOf(state);
                OctetKeyPair key = null;
                if (keyState.isPublished()) {
                    key = Ed25519Keys.parsePrivate(JSONObjectUtils.getJSONObject(entry, "jwk"));
                    if (!key.getKeyID().equals(kid)) {
                        throw new IllegalArgumentException("kid does not match its key");
                    }
                } else if (entry.containsKey("jwk")) {
                    throw new IllegalArgumentException("a revoked key keeps no key material");
                }
                keys.add(new RingKey(
                        new SigningKeyInfo(
                                kid,
                                keyState,
                                instant(entry, "created", true),
                                instant(entry, "activated", false),
                                instant(entry, "retired", false),
                                instant(entry, "revoked", false)),
                        key));
            }
            return new KeyRing(clock, keys);
        } catch (ParseException | DateTimeParseException e) {
            // never include the input: it holds private keys
            throw new IllegalArgumentException(
                    "invalid key ring JSON: " + e.getClass().getSimpleName());
        }
    }

    /** The private form (includes key material): store it only where secrets belong. */
    public String toJson() {
        List<Object> entries = new ArrayList<>();
        for (RingKey key : keys) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("kid", key.info().keyId());
            entry.put("state", key.info().state().name());
            entry.put("created", key.info().created().toString());
            if (key.info().activated() != null) {
                entry.put("activated", key.info().activated().toString());
            }
            if (key.info().retired() != null) {
                entry.put("retired", key.info().retired().toString());
            }
            if (key.info().revoked() != null) {
                entry.put("revoked", key.info().revoked().toString());
            }
            if (key.jwk() != null) {
                entry.put("jwk", key.jwk().toJSONObject());
            }
            entries.add(entry);
        }
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("version", FORMAT_VERSION);
        root.put("keys", entries);
        return JSONObjectUtils.toJSONString(root);
    }

    /** The JWKS served at {@code /.well-known/jwks.json}: public halves of every published key (never a revoked one). */
    public String publicJwksJson() {
        return Ed25519Keys.publicJwks(keys.stream()
                .filter(k -> k.info().state().isPublished())
                .map(RingKey::jwk)
                .toList());
    }

    /** Adds a NEXT key (published, not signing). Fails if a NEXT key already exists. */
    public KeyRing publishNext() {
        if (find(KeyState.NEXT) != null) {
            throw new IllegalStateException("a NEXT key is already published");
        }
        OctetKeyPair key = Ed25519Keys.generate();
        List<RingKey> next = new ArrayList<>(keys);
        next.add(new RingKey(new SigningKeyInfo(key.getKeyID(), KeyState.NEXT, clock.instant(), null, null), key));
        return new KeyRing(clock, next);
    }

    /** NEXT becomes ACTIVE, the ACTIVE key becomes RETIRED (still published). Fails without a NEXT key. */
    public KeyRing activateNext() {
        if (find(KeyState.NEXT) == null) {
            throw new IllegalStateException("no NEXT key to activate: publishNext first");
        }
        Instant now = clock.instant();
        List<RingKey> next = new ArrayList<>();
        for (RingKey key : keys) {
            SigningKeyInfo info = key.info();
            next.add(
                    switch (info.state()) {
                        case NEXT ->
                            key.moveTo(new SigningKeyInfo(info.keyId(), KeyState.ACTIVE, info.created(), now, null));
                        case ACTIVE ->
                            key.moveTo(new SigningKeyInfo(
                                    info.keyId(), KeyState.RETIRED, info.created(), info.activated(), now));
                        case RETIRED, REVOKED -> key;
                    });
        }
        return new KeyRing(clock, next);
    }

    /** Removes (unpublishes) the keys retired before {@code cutoff}, and forgets revocations older than it. */
    public KeyRing retireOlderThan(Instant cutoff) {
        Objects.requireNonNull(cutoff, "cutoff");
        return removeRetired(info -> info.state() == KeyState.RETIRED
                ? info.retired().isBefore(cutoff)
                : info.revoked().isBefore(cutoff));
    }

    /**
     * Removes the RETIRED keys (unpublishing them) and the REVOKED records for which {@code expired} holds; NEXT and
     * ACTIVE keys are never offered to it. The caller decides when no token a key signed can still be valid.
     */
    public KeyRing removeRetired(Predicate<SigningKeyInfo> expired) {
        Objects.requireNonNull(expired, "expired");
        List<RingKey> kept = keys.stream()
                .filter(k -> !isSpent(k.info().state()) || !expired.test(k.info()))
                .toList();
        return kept.size() == keys.size() ? this : new KeyRing(clock, kept);
    }

    /**
     * Revokes {@code keyId} at once: it leaves the JWKS, its key material is dropped and only a REVOKED record stays.
     * If it was the ACTIVE key, the NEXT key (already published) becomes ACTIVE, or, without one, a fresh key is
     * generated and becomes ACTIVE at once (verifiers fetch the JWKS when they meet its unknown kid). Revoking a
     * revoked key returns this ring.
     *
     * @throws IllegalArgumentException when the ring has no key {@code keyId}
     */
    public KeyRing revoke(String keyId) {
        RingKey target = keys.stream()
                .filter(k -> k.info().keyId().equals(keyId))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no signing key with that id"));
        if (target.info().state() == KeyState.REVOKED) {
            return this;
        }
        Instant now = clock.instant();
        boolean wasActive = target.info().state() == KeyState.ACTIVE;
        boolean hasNext = find(KeyState.NEXT) != null;
        List<RingKey> next = new ArrayList<>();
        for (RingKey key : keys) {
            SigningKeyInfo info = key.info();
            if (key == target) {
                next.add(key.revokedAt(now));
            } else if (wasActive && info.state() == KeyState.NEXT) {
                next.add(key.moveTo(new SigningKeyInfo(info.keyId(), KeyState.ACTIVE, info.created(), now, null)));
            } else {
                next.add(key);
            }
        }
        if (wasActive && !hasNext) {
            OctetKeyPair fresh = Ed25519Keys.generate();
            next.add(new RingKey(new SigningKeyInfo(fresh.getKeyID(), KeyState.ACTIVE, now, now, null), fresh));
        }
        return new KeyRing(clock, next);
    }

    /** The key {@code keyId}, published or revoked, if the ring still has it. */
    public Optional<SigningKeyInfo> key(String keyId) {
        return keys.stream()
                .map(RingKey::info)
                .filter(info -> info.keyId().equals(keyId))
                .findFirst();
    }

    public String activeKeyId() {
        return find(KeyState.ACTIVE).info().keyId();
    }

    /** Every key in the ring (revoked records included), oldest first, without key material. */
    public List<SigningKeyInfo> keys() {
        return keys.stream().map(RingKey::info).toList();
    }

    OctetKeyPair activeKey() {
        return find(KeyState.ACTIVE).jwk();
    }

    @Override
    public String toString() {
        return "KeyRing" + keys();
    }

    private RingKey find(KeyState state) {
        for (RingKey key : keys) {
            if (key.info().state() == state) {
                return key;
            }
        }
        return null;
    }

    private static boolean isSpent(KeyState state) {
        return state == KeyState.RETIRED || state == KeyState.REVOKED;
    }

    private static Instant instant(Map<String, Object> entry, String name, boolean required) throws ParseException {
        String text = JSONObjectUtils.getString(entry, name);
        if (text == null) {
            if (required) {
                throw new IllegalArgumentException("key without " + name + " time");
            }
            return null;
        }
        return Instant.parse(text);
    }

    private static void validate(List<RingKey> keys) {
        int active = 0;
        int next = 0;
        Set<String> ids = new HashSet<>();
        for (RingKey key : keys) {
            SigningKeyInfo info = key.info();
            if (!ids.add(info.keyId())) {
                throw new IllegalArgumentException("duplicate kid " + info.keyId());
            }
            require((info.revoked() != null) == (info.state() == KeyState.REVOKED), info, "revoked time iff REVOKED");
            require((key.jwk() != null) == info.state().isPublished(), info, "key material iff published");
            switch (info.state()) {
                case ACTIVE -> {
                    active++;
                    require(info.activated() != null && info.retired() == null, info, "ACTIVE needs activated only");
                }
                case NEXT -> {
                    next++;
                    require(info.activated() == null && info.retired() == null, info, "NEXT has no activation");
                }
                case RETIRED -> require(info.retired() != null, info, "RETIRED needs a retired time");
                case REVOKED -> {
                    // only the record: when it was revoked, and what it had been
                }
            }
        }
        if (active != 1) {
            throw new IllegalArgumentException("a key ring needs exactly one ACTIVE key, found " + active);
        }
        if (next > 1) {
            throw new IllegalArgumentException("a key ring has at most one NEXT key, found " + next);
        }
    }

    private static void require(boolean condition, SigningKeyInfo info, String message) {
        if (!condition) {
            throw new IllegalArgumentException("key " + info.keyId() + ": " + message);
        }
    }

    /** One key; {@code jwk} (with the private half) is null once the key is REVOKED. */
    private record RingKey(SigningKeyInfo info, OctetKeyPair jwk) {
        RingKey moveTo(SigningKeyInfo target) {
            if (!info.state().canBecome(target.state())) {
                throw new IllegalStateException(info.state() + " cannot become " + target.state());
            }
            return new RingKey(target, jwk);
        }

        RingKey revokedAt(Instant at) {
            if (!info.state().canBecome(KeyState.REVOKED)) {
                throw new IllegalStateException(info.state() + " cannot become " + KeyState.REVOKED);
            }
            return new RingKey(
                    new SigningKeyInfo(
                            info.keyId(), KeyState.REVOKED, info.created(), info.activated(), info.retired(), at),
                    null);
        }
    }
}
