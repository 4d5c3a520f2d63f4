package dev.waitroom.coordinator.keys;

import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.KeyState;
import dev.waitroom.tokens.SigningKeyInfo;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * The Ed25519 key ring, kept in Postgres so every coordinator instance signs with the same keys. Generated at first
 * use; every change is a compare-and-set on the row version. Rotation: publish NEXT, after {@code publishLead}
 * activate it, after {@code retireAfter} unpublish the retired key.
 */
@Component
public class SigningKeys {

    private static final Logger log = LoggerFactory.getLogger(SigningKeys.class);

    private final JdbcClient jdbc;

    private final Clock clock;

    private final KeysProperties properties;

    private volatile Loaded loaded;

    SigningKeys(JdbcClient jdbc, Clock clock, KeysProperties properties) {
        this.jdbc = jdbc;
        this.clock = clock;
        this.properties = properties;
    }

    public AdmissionTokenIssuer issuer() {
        return current().issuer();
    }

    public String publicJwksJson() {
        return current().ring().publicJwksJson();
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

    /** Moves a rotation on when its time has come: activate NEXT, unpublish long-retired keys. */
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
        next = next.retireOlderThan(at.minus(this.properties.retireAfter()));
        if (next != ring && store(now.version(), next)) {
            log.info("Signing keys advanced: active key {}", next.activeKeyId());
        }
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
            // Cheap check first: parse the ring again only when another instance (or this one) changed it.
            Optional<Long> version = this.jdbc
                    .sql("select version from signing_keys where id = 1")
                    .query(Long.class)
                    .optional();
            if (version.isPresent() && version.get() == previous.version()) {
                Loaded same = new Loaded(previous.ring(), previous.issuer(), previous.version(), this.clock.instant());
                this.loaded = same;
                return same;
            }
        }
        Optional<Loaded> row = read();
        if (row.isEmpty()) {
            this.jdbc
                    .sql(
                            "insert into signing_keys (id, ring_json, version) values (1, :json, 1) on conflict do nothing")
                    .param("json", KeyRing.generate(this.clock).toJson())
                    .update();
            row = read();
        }
        Loaded l = row.orElseThrow();
        this.loaded = l;
        return l;
    }

    private Optional<Loaded> read() {
        return this.jdbc
                .sql("select ring_json, version from signing_keys where id = 1")
                .query((rs, n) -> {
                    KeyRing ring = KeyRing.fromJson(rs.getString("ring_json"), this.clock);
                    return new Loaded(ring, AdmissionTokenIssuer.of(ring), rs.getLong("version"), this.clock.instant());
                })
                .optional();
    }

    private boolean store(long expectedVersion, KeyRing ring) {
        int rows = this.jdbc
                .sql("""
                update signing_keys set ring_json = :json, version = version + 1, updated_at = now()
                where id = 1 and version = :version
                """)
                .param("json", ring.toJson())
                .param("version", expectedVersion)
                .update();
        if (rows == 1) {
            this.loaded = null;
        }
        return rows == 1;
    }

    private record Loaded(KeyRing ring, AdmissionTokenIssuer issuer, long version, Instant loadedAt) {}
}
