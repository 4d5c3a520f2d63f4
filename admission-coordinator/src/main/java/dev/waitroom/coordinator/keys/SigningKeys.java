package dev.waitroom.coordinator.keys;

import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.KeyState;
import dev.waitroom.tokens.ModeStatement;
import dev.waitroom.tokens.ModeStatementSigner;
import dev.waitroom.tokens.SigningKeyInfo;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The Ed25519 key ring, kept in Postgres so every coordinator instance signs with the same keys, sealed with the
 * key-encryption key (AES-256-GCM, {@link KeyEncryption}): the row never holds a private key in plain text. Generated
 * at first start; every change is a compare-and-set on the row version. Rotation: publish NEXT, after {@code
 * publishLead} activate it, unpublish the retired key once no token it signed can still be valid. An emergency revoke
 * unpublishes a key at once (docs/design/security/keys.md).
 */
@Component
public class SigningKeys implements InitializingBean {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);

    /** Verifiers accept a token this long after its {@code exp}; a key stays published for as long. */
    private static final Duration VERIFIER_SKEW = AdmissionTokenVerifier.DEFAULT_SKEW;

    private final JdbcClient jdbc;

    private final Clock clock;

    private final KeysProperties properties;

    private final KeyEncryption encryption;

    private volatile Loaded loaded;

    SigningKeys(JdbcClient jdbc, Clock clock, KeysProperties properties, KeyEncryptionProperties encryption) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.properties = properties;
        this.encryption = new KeyEncryption(encryption);
    }

    /**
     * At start: generates the ring if there is none, seals a ring stored in plain text (before keys were encrypted at
     * rest) or sealed with the previous key-encryption key, and refuses to start (an exception naming the property)
     * when the configured key-encryption key cannot open the stored ring.
     */
    @Override
    public void afterPropertiesSet() {
        for (int attempt = 0; attempt < 5; attempt++) {
            Optional<StoredRing> stored = readRow();
            if (stored.isEmpty()) {
                insertGenerated();
                continue;
            }
            StoredRing row = stored.get();
            if (row.plaintext() != null) {
                KeyRing ring = KeyRing.fromJson(row.plaintext(), this.clock);
                if (sealPlaintext(row.version(), ring)) {
                    log.info(
                            "Signing keys were stored in plain text: now sealed with key-encryption key {}",
                            this.encryption.keyId());
                }
                continue;
            }
            KeyEncryption.Opened opened = this.encryption.open(row.sealed());
            if (!opened.sealedWithCurrentKey()) {
                if (store(row.version(), KeyRing.fromJson(opened.plaintext(), this.clock))) {
                    log.info(
                            "Signing keys sealed again with the new key-encryption key {}; the previous key may go",
                            this.encryption.keyId());
                }
                continue;
            }
            this.loaded = parse(opened.plaintext(), row.version());
            return;
        }
        throw new IllegalStateException("signing keys changed concurrently five times during start");
    }

    public AdmissionTokenIssuer issuer() {
        return current().issuer();
    }

    /**
     * The event's mode signed with the active key, for the gateway (docs/design/security/signed-mode.md): it
     * believes BYPASS only on such a statement, which no queue-service or other holder of an internal credential can
     * make.
     */
    public String signMode(ModeStatement statement) {
        return current().modes().sign(statement);
    }

    public String publicJwksJson() {
        return current().jwks();
    }

    public KeyRing ring() {
        return current().ring();
    }

    /** Publishes a NEXT key; idempotent while a rotation is under way. Returns the ring afterwards. */
    public KeyRing rotate() {
        for (int attempt = 0; attempt < 5; attempt++) {
            Loaded now = load();
            if (hasNext(now.ring())) {
                return now.ring();
            }
            KeyRing next = now.ring().publishNext();
            if (store(now.version(), next)) {
                log.info("Signing key rotation started: NEXT key published");
                return next;
            }
        }
        throw new IllegalStateException("signing keys changed concurrently five times");
    }

    /**
     * Revokes {@code keyId} at once: gone from the JWKS (verifiers refuse its tokens, cached ones too, within their
     * key refresh of a few seconds), never signing again; if it was signing, the NEXT key or a fresh one signs from
     * now on. Empty when the ring has no such key (never had, or forgot it long ago); a revoked key answers its ring
     * unchanged.
     */
    public Optional<KeyRing> revoke(String keyId) {
        for (int attempt = 0; attempt < 5; attempt++) {
            Loaded now = load();
            Optional<SigningKeyInfo> key = now.ring().key(keyId);
            if (key.isEmpty()) {
                return Optional.empty();
            }
            if (key.get().state() == KeyState.REVOKED) {
                return Optional.of(now.ring());
            }
            KeyRing next = now.ring().revoke(keyId);
            if (store(now.version(), next)) {
                log.warn(
                        "Signing key {} ({}) REVOKED: unpublished at once; key {} signs",
                        keyId,
                        key.get().state(),
                        next.activeKeyId());
                return Optional.of(next);
            }
        }
        throw new IllegalStateException("signing keys changed concurrently five times");
    }

    /**
     * Moves a rotation on when its time has come: activates NEXT after the publish lead; unpublishes a retired key,
     * and forgets a revoked key's record, once no token it signed can still be valid.
     */
    public void advance() {
        Loaded now = current();
        Instant at = this.clock.instant();
        KeyRing ring = now.ring();
        KeyRing next = ring;
        Optional<SigningKeyInfo> pending =
                ring.keys().stream().filter(k -> k.state() == KeyState.NEXT).findFirst();
        if (pending.isPresent()
                && !pending.get().created().plus(this.properties.publishLead()).isAfter(at)) {
            next = next.activateNext();
        }
        next = next.removeRetired(info -> tokensAllExpired(info, at));
        if (next != ring && store(now.version(), next)) {
            log.info(
                    "Signing keys advanced: active key {}, {} keys in the ring",
                    next.activeKeyId(),
                    next.keys().size());
        }
    }

    /**
     * Whether no token signed with this retired or revoked key can still be valid at {@code now}: it stopped signing
     * at least {@code retainRetired} ago, and no session activated before then (plus this instance's cache time and
     * the verifiers' skew, for instances that signed from an older copy) has an absolute expiry (the latest {@code
     * exp} any of its tokens carries) ahead of {@code now} minus the skew. Sessions are at most 24 h, so this holds at
     * most a day after the key stopped signing; a key that never signed goes after {@code retainRetired}.
     */
    private boolean tokensAllExpired(SigningKeyInfo info, Instant now) {
        Instant stoppedSigning = info.retired() != null ? info.retired() : info.revoked();
        if (stoppedSigning.plus(this.properties.retainRetired()).isAfter(now)) {
            return false;
        }
        if (info.activated() == null) {
            return true;
        }
        // grants belong to the admission feature (docs/design/architecture.md#grant-and-shopping-session); only their
        // activation and absolute expiry are read here, through grants_by_absolute_expiry
        boolean mayHoldValidTokens = this.jdbc
                .sql("""
                        select exists (
                            select 1 from grants
                            where absolute_expires_at > :validAfter and activated_at < :signedUntil)
                        """)
                .param("validAfter", utc(now.minus(VERIFIER_SKEW)))
                .param(
                        "signedUntil",
                        utc(stoppedSigning.plus(this.properties.cacheFor()).plus(VERIFIER_SKEW)))
                .query(Boolean.class)
                .single();
        return !mayHoldValidTokens;
    }

    private static OffsetDateTime utc(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static boolean hasNext(KeyRing ring) {
        return ring.keys().stream().anyMatch(k -> k.state() == KeyState.NEXT);
    }

    private Loaded current() {
        Loaded l = this.loaded;
        if (l == null || !l.loadedAt().plus(this.properties.cacheFor()).isAfter(this.clock.instant())) {
            l = load();
        }
        return l;
    }

    private Loaded load() {
        Loaded previous = this.loaded;
        if (previous != null) {
            // Cheap check first: open and parse the ring again only when another instance (or this one) changed it.
            Optional<Long> version = this.jdbc
                    .sql("select version from signing_keys where id = 1")
                    .query(Long.class)
                    .optional();
            if (version.isPresent() && version.get() == previous.version()) {
                Loaded same = previous.at(this.clock.instant());
                this.loaded = same;
                return same;
            }
        }
        StoredRing row = readRow()
                .orElseThrow(() -> new IllegalStateException("the signing keys row is gone from the database"));
        if (row.sealed() == null) {
            throw new IllegalStateException("the signing keys were written in plain text after this instance started: "
                    + "an instance without key encryption runs against this database");
        }
        Loaded l = parse(this.encryption.open(row.sealed()).plaintext(), row.version());
        this.loaded = l;
        return l;
    }

    private Loaded parse(String json, long version) {
        KeyRing ring = KeyRing.fromJson(json, this.clock);
        return new Loaded(
                ring,
                AdmissionTokenIssuer.of(ring),
                ModeStatementSigner.of(ring),
                ring.publicJwksJson(),
                version,
                this.clock.instant());
    }

    private Optional<StoredRing> readRow() {
        return this.jdbc
                .sql("select ring_json, sealed_ring, version from signing_keys where id = 1")
                .query((rs, n) ->
                        new StoredRing(rs.getString("ring_json"), rs.getString("sealed_ring"), rs.getLong("version")))
                .optional();
    }

    private void insertGenerated() {
        int rows = this.jdbc
                .sql("""
                        insert into signing_keys (id, sealed_ring, version) values (1, :sealed, 1)
                        on conflict do nothing
                        """)
                .param(
                        "sealed",
                        this.encryption.seal(KeyRing.generate(this.clock).toJson()))
                .update();
        if (rows == 1) {
            log.info("Signing keys generated, sealed with key-encryption key {}", this.encryption.keyId());
        }
    }

    private boolean sealPlaintext(long expectedVersion, KeyRing ring) {
        return this.jdbc
                        .sql("""
                                update signing_keys
                                set sealed_ring = :sealed, ring_json = null, version = version + 1, updated_at = now()
                                where id = 1 and version = :version and ring_json is not null
                                """)
                        .param("sealed", this.encryption.seal(ring.toJson()))
                        .param("version", expectedVersion)
                        .update()
                == 1;
    }

    private boolean store(long expectedVersion, KeyRing ring) {
        int rows = this.jdbc
                .sql("""
                        update signing_keys
                        set sealed_ring = :sealed, ring_json = null, version = version + 1, updated_at = now()
                        where id = 1 and version = :version
                        """)
                .param("sealed", this.encryption.seal(ring.toJson()))
                .param("version", expectedVersion)
                .update();
        if (rows == 1) {
            this.loaded = null;
        }
        return rows == 1;
    }

    /** The row as stored: exactly one of the two forms is set. */
    private record StoredRing(String plaintext, String sealed, long version) {

        @Override
        public String toString() {
            return "StoredRing[version=" + version + ", plaintext=" + (plaintext != null) + "]";
        }
    }

    private record Loaded(
            KeyRing ring,
            AdmissionTokenIssuer issuer,
            ModeStatementSigner modes,
            String jwks,
            long version,
            Instant loadedAt) {

        Loaded at(Instant instant) {
            return new Loaded(ring, issuer, modes, jwks, version, instant);
        }
    }
}
