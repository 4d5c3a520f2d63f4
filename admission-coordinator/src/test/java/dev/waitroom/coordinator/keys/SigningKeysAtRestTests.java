package dev.waitroom.coordinator.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.testsupport.MutableClock;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.KeyState;
import dev.waitroom.tokens.SigningKeyInfo;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Signing keys at rest, on a database of their own (real PostgreSQL, the coordinator's migrations) so each test sees
 * only the rows it wrote: the row is sealed with the key-encryption key and holds no private key in plain text, a ring
 * stored in plain text is sealed at start, a wrong key-encryption key or an altered row stops the start, the previous
 * key-encryption key opens the ring to seal it again; and a retired key stays published exactly as long as a token it
 * signed can be valid.
 */
class SigningKeysAtRestTests {

    private static final String DATABASE = "coordinator_keys";

    private static final SecureRandom RANDOM = new SecureRandom();

    private static final KeysProperties TIMING =
            new KeysProperties(Duration.ZERO, Duration.ofSeconds(60), Duration.ZERO);

    private static final Pattern PRIVATE_PART = Pattern.compile("\"d\":\"([A-Za-z0-9_-]+)\"");

    private static JdbcClient jdbc;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-05-01T10:00:00Z"));

    private final String kekA = randomKey();

    private final String kekB = randomKey();

    @BeforeAll
    static void migrate() {
        DataSource dataSource = new DriverManagerDataSource(
                RealStores.postgresJdbcUrl(DATABASE), RealStores.postgresUser(), RealStores.postgresPassword());
        Flyway.configure()
                .dataSource(dataSource)
                .locations("classpath:db/migration")
                .load()
                .migrate();
        jdbc = JdbcClient.create(dataSource);
    }

    @BeforeEach
    void emptyTables() {
        jdbc.sql("truncate signing_keys, grants, events cascade").update();
    }

    private static String randomKey() {
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        return Base64.getEncoder().encodeToString(key);
    }

    private SigningKeys start(String kek, String previousKek) {
        SigningKeys keys = new SigningKeys(jdbc, this.clock, TIMING, new KeyEncryptionProperties(kek, previousKek));
        keys.afterPropertiesSet();
        return keys;
    }

    private static String rowAsText() {
        return jdbc.sql("select row_to_json(s)::text from signing_keys s")
                .query(String.class)
                .single();
    }

    private static String sealed() {
        return jdbc.sql("select sealed_ring from signing_keys")
                .query(String.class)
                .single();
    }

    private static String kekIdOf(String sealed) {
        return sealed.split("\\.")[1];
    }

    private static List<String> privateParts(String ringJson) {
        List<String> parts = new ArrayList<>();
        Matcher m = PRIVATE_PART.matcher(ringJson);
        while (m.find()) {
            parts.add(m.group(1));
        }
        return parts;
    }

    @Test
    void theRowHoldsTheRingSealedAndNoPrivateKeyInPlainText() {
        SigningKeys keys = start(this.kekA, null);
        keys.rotate();
        keys.advance();

        String row = rowAsText();
        String sealed = sealed();
        KeyEncryption encryption = new KeyEncryption(new KeyEncryptionProperties(this.kekA, null));
        String opened = encryption.open(sealed).plaintext();
        List<String> privateParts = privateParts(opened);

        assertThat(jdbc.sql("select ring_json from signing_keys")
                        .query(String.class)
                        .optional())
                .isEmpty();
        assertThat(sealed).startsWith(KeyEncryption.FORMAT + "." + encryption.keyId() + ".");
        assertThat(privateParts)
                .as("both keys' private halves are in the sealed ring")
                .hasSize(2);
        assertThat(row).doesNotContain("\"d\"").doesNotContain("\\\"d\\\"");
        privateParts.forEach(d -> assertThat(row).doesNotContain(d));
        assertThat(encryption.seal(opened)).as("every seal takes a fresh nonce").isNotEqualTo(sealed);

        Instant now = this.clock.instant();
        String token =
                keys.issuer().issue(new AdmissionClaims("evt-1", 1, "g", "s", "v", now, now.plusSeconds(60), "j"));
        assertThat(AdmissionTokenVerifier.of(keys::publicJwksJson, this.clock)
                        .verify(token, "evt-1", 1)
                        .tokenId())
                .isEqualTo("j");
    }

    @Test
    void aRingStoredInPlainTextIsSealedAtStartAndKeepsItsKeys() {
        KeyRing plaintext = KeyRing.generate(this.clock).publishNext();
        jdbc.sql("insert into signing_keys (id, ring_json, version) values (1, :json, 7)")
                .param("json", plaintext.toJson())
                .update();

        SigningKeys keys = start(this.kekA, null);

        assertThat(jdbc.sql("select ring_json from signing_keys")
                        .query(String.class)
                        .optional())
                .isEmpty();
        assertThat(jdbc.sql("select version from signing_keys")
                        .query(Long.class)
                        .single())
                .isEqualTo(8L);
        privateParts(plaintext.toJson()).forEach(d -> assertThat(rowAsText()).doesNotContain(d));
        assertThat(keys.ring().keys()).isEqualTo(plaintext.keys());
        assertThat(keys.publicJwksJson()).isEqualTo(plaintext.publicJwksJson());
        assertThat(start(this.kekA, null).ring().activeKeyId()).isEqualTo(plaintext.activeKeyId());
    }

    @Test
    void aWrongKeyEncryptionKeyRefusesToStartAndChangesNothing() {
        start(this.kekA, null);
        String before = rowAsText();
        String idA = kekIdOf(sealed());
        String idB = new KeyEncryption(new KeyEncryptionProperties(this.kekB, null)).keyId();

        assertThatThrownBy(() -> start(this.kekB, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("sealed with key-encryption key " + idA)
                .hasMessageContaining("WAITROOM_SECURITY_KEYENCRYPTIONKEY) is key " + idB)
                .satisfies(e ->
                        assertThat(e.getMessage()).doesNotContain(this.kekA).doesNotContain(this.kekB));
        assertThat(rowAsText()).isEqualTo(before);
    }

    @Test
    void anAlteredRowIsRefusedAtStart() {
        start(this.kekA, null);
        String sealed = sealed();
        int inCiphertext = sealed.lastIndexOf('.') + 10; // a whole sextet of ciphertext, not trailing bits
        String altered = sealed.substring(0, inCiphertext)
                + (sealed.charAt(inCiphertext) == 'A' ? 'B' : 'A')
                + sealed.substring(inCiphertext + 1);
        jdbc.sql("update signing_keys set sealed_ring = :s").param("s", altered).update();

        assertThatThrownBy(() -> start(this.kekA, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("do not decrypt with key-encryption key " + kekIdOf(sealed));
        jdbc.sql("update signing_keys set sealed_ring = 'not sealed'").update();
        assertThatThrownBy(() -> start(this.kekA, null))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not in the wr-kek-v1 format");
    }

    @Test
    void thePreviousKeyEncryptionKeyOpensTheRingWhichIsSealedAgainWithTheNewOne() {
        String kid = start(this.kekA, null).ring().activeKeyId();
        String idB = new KeyEncryption(new KeyEncryptionProperties(this.kekB, null)).keyId();

        SigningKeys rotated = start(this.kekB, this.kekA);

        assertThat(rotated.ring().activeKeyId()).isEqualTo(kid);
        assertThat(kekIdOf(sealed())).isEqualTo(idB);
        assertThat(start(this.kekB, null).ring().activeKeyId()).isEqualTo(kid);
        assertThatThrownBy(() -> start(this.kekA, null)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void theKeyEncryptionKeyIsRequiredAndExactly32BytesAndNeverEchoed() {
        String short16 = Base64.getEncoder().encodeToString(new byte[16]);

        assertThatThrownBy(() -> new KeyEncryptionProperties(null, null))
                .hasMessageContaining("WAITROOM_SECURITY_KEYENCRYPTIONKEY")
                .hasMessageContaining("must be set");
        assertThatThrownBy(() -> new KeyEncryptionProperties(" ", null)).hasMessageContaining("must be set");
        assertThatThrownBy(() -> new KeyEncryptionProperties(short16, null)).hasMessageContaining("exactly 32 bytes");
        assertThatThrownBy(() -> new KeyEncryptionProperties("not base64!", null))
                .hasMessageContaining("not valid base64")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("not base64!"));
        assertThatThrownBy(() -> new KeyEncryptionProperties(this.kekA, short16))
                .hasMessageContaining("WAITROOM_SECURITY_KEYENCRYPTIONKEYPREVIOUS");
        assertThat(new KeyEncryptionProperties(this.kekA, "").keyEncryptionKeyPrevious())
                .isNull();
        assertThat(new KeyEncryptionProperties(this.kekA, this.kekB).toString())
                .doesNotContain(this.kekA)
                .doesNotContain(this.kekB);
    }

    @Test
    void theContextRefusesToStartWithAKeyEncryptionKeyThatCannotOpenItsKeysOrWithoutOne() {
        start(this.kekA, null);
        String before = rowAsText();
        // the signing keys' own beans, on this test's database: never the full application, whose application.yml
        // points at the launcher's database and ports
        ApplicationContextRunner context = new ApplicationContextRunner()
                .withUserConfiguration(KeysOnly.class)
                .withBean(JdbcClient.class, () -> jdbc)
                .withBean(Clock.class, () -> this.clock);

        context.withPropertyValues("waitroom.security.key-encryption-key=" + this.kekB)
                .run(started -> assertThat(started)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("WAITROOM_SECURITY_KEYENCRYPTIONKEY"));
        context.run(started -> assertThat(started)
                .getFailure()
                .rootCause()
                .hasMessageContaining("WAITROOM_SECURITY_KEYENCRYPTIONKEY")
                .hasMessageContaining("must be set"));
        context.withPropertyValues("waitroom.security.key-encryption-key=" + this.kekA)
                .run(started -> assertThat(
                                started.getBean(SigningKeys.class).ring().keys())
                        .hasSize(1));
        assertThat(rowAsText()).isEqualTo(before);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableConfigurationProperties({KeysProperties.class, KeyEncryptionProperties.class})
    @Import(SigningKeys.class)
    static class KeysOnly {}

    @Test
    void aRetiredKeyStaysPublishedWhileASessionActivatedBeforeItRetiredCanHoldATokenItSigned() {
        SigningKeys keys = start(this.kekA, null);
        String old = keys.ring().activeKeyId();
        Instant absolute = this.clock.instant().plus(Duration.ofHours(2));
        activeSession(this.clock.instant(), absolute);
        keys.rotate();
        keys.advance();
        assertThat(state(keys, old)).isEqualTo(KeyState.RETIRED);

        this.clock.advance(Duration.ofMinutes(30));
        keys.advance();
        assertThat(keys.publicJwksJson())
                .as("the session's tokens can still be valid")
                .contains(old);

        moveTo(absolute.plus(AdmissionTokenVerifier.DEFAULT_SKEW).minusSeconds(1));
        keys.advance();
        assertThat(keys.publicJwksJson()).contains(old);
        this.clock.advance(Duration.ofSeconds(1));
        keys.advance();
        assertThat(keys.publicJwksJson())
                .as("no token it signed is valid any more")
                .doesNotContain(old);
        assertThat(keys.ring().key(old)).isEmpty();
    }

    @Test
    void aRetiredKeyNoSessionCanHoldATokenOfGoesAfterTheLeastRetention() {
        SigningKeys keys = start(this.kekA, null);
        String old = keys.ring().activeKeyId();
        keys.rotate();
        keys.advance();
        Instant retired = this.clock.instant();
        // activated after the key retired (beyond the 30 s margin): its tokens carry the new key
        activeSession(retired.plus(Duration.ofMinutes(1)), retired.plus(Duration.ofHours(3)));

        this.clock.advance(Duration.ofSeconds(59));
        keys.advance();
        assertThat(keys.publicJwksJson()).contains(old);
        this.clock.advance(Duration.ofSeconds(1));
        keys.advance();
        assertThat(keys.publicJwksJson()).doesNotContain(old);
        assertThat(keys.ring().keys()).extracting(SigningKeyInfo::state).containsExactly(KeyState.ACTIVE);
    }

    @Test
    void aRevokedKeysRecordIsKeptAsLongAsItsTokensCouldHaveLived() {
        SigningKeys keys = start(this.kekA, null);
        String revoked = keys.ring().activeKeyId();
        Instant absolute = this.clock.instant().plus(Duration.ofMinutes(45));
        activeSession(this.clock.instant(), absolute);
        this.clock.advance(Duration.ofSeconds(5));

        assertThat(keys.revoke(revoked)).isPresent();
        assertThat(keys.publicJwksJson()).doesNotContain(revoked);
        assertThat(state(keys, revoked)).isEqualTo(KeyState.REVOKED);
        this.clock.advance(Duration.ofMinutes(10));
        keys.advance();
        assertThat(state(keys, revoked)).isEqualTo(KeyState.REVOKED);

        moveTo(absolute.plus(Duration.ofMinutes(1)));
        keys.advance();
        assertThat(keys.ring().key(revoked)).isEmpty();
        assertThat(keys.revoke(revoked)).as("a forgotten key is unknown").isEmpty();
    }

    private void moveTo(Instant instant) {
        this.clock.advance(Duration.between(this.clock.instant(), instant));
    }

    private static KeyState state(SigningKeys keys, String kid) {
        return keys.ring().key(kid).orElseThrow().state();
    }

    /** An ACTIVE grant (and its event) as a claim leaves them: only the times matter here. */
    private static void activeSession(Instant activatedAt, Instant absoluteExpiresAt) {
        String event = "keys-" + UUID.randomUUID().toString().substring(0, 8);
        jdbc.sql("""
                        insert into events (event_id, name, max_active_sessions, max_admissions_per_second, batch_max,
                            offer_ttl_seconds, session_ttl_seconds, session_max_seconds, presale_ordering,
                            identity_scope, expired_offer_policy, after_purchase, phase, mode, seed, commitment)
                        values (:event, 'Keys', 10, 10, 10, 30, 600, 86400, 'FIFO', 'BROWSER', 'DROP', 'RELEASE',
                            'OPEN', 'QUEUEING', 'seed', 'commitment')
                        """).param("event", event).update();
        OffsetDateTime activated = OffsetDateTime.ofInstant(activatedAt, ZoneOffset.UTC);
        jdbc.sql("""
                        insert into grants (id, event_id, visitor, entry_id, order_key, generation, state, offered_at,
                            offer_expires_at, session_id, activated_at, session_expires_at, absolute_expires_at)
                        values (:id, :event, 'visitor', 'entry', 1, 1, 'ACTIVE', :activated, :activated, :session,
                            :activated, :sessionExpires, :absolute)
                        """)
                .param("id", UUID.randomUUID())
                .param("event", event)
                .param("activated", activated)
                .param("session", UUID.randomUUID())
                .param(
                        "sessionExpires",
                        OffsetDateTime.ofInstant(activatedAt.plus(Duration.ofMinutes(10)), ZoneOffset.UTC))
                .param("absolute", OffsetDateTime.ofInstant(absoluteExpiresAt, ZoneOffset.UTC))
                .update();
    }
}
