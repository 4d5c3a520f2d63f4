package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.OctetKeyPair;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class KeyRingTests {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private final MutableClock clock = new MutableClock(START);

    @Test
    void generatesOneActiveKey() {
        KeyRing ring = KeyRing.generate(clock);

        assertThat(ring.keys()).singleElement().satisfies(key -> {
            assertThat(key.state()).isEqualTo(KeyState.ACTIVE);
            assertThat(key.keyId()).isEqualTo(ring.activeKeyId()).matches("[A-Za-z0-9_-]{1,64}");
            assertThat(key.created()).isEqualTo(START);
            assertThat(key.activated()).isEqualTo(START);
            assertThat(key.retired()).isNull();
        });
    }

    @Test
    void walksTheLifecyclePublishActivateRemove() throws Exception {
        KeyRing first = KeyRing.generate(clock);
        String oldKid = first.activeKeyId();
        clock.advance(Duration.ofMinutes(1));
        KeyRing published = first.publishNext();
        String newKid = published.keys().get(1).keyId();
        clock.advance(Duration.ofMinutes(1));
        KeyRing activated = published.activateNext();
        clock.advance(Duration.ofMinutes(1));

        assertThat(published.activeKeyId()).isEqualTo(oldKid);
        assertThat(published.keys())
                .extracting(SigningKeyInfo::keyId, SigningKeyInfo::state)
                .containsExactly(tuple(oldKid, KeyState.ACTIVE), tuple(newKid, KeyState.NEXT));
        assertThat(activated.activeKeyId()).isEqualTo(newKid);
        assertThat(activated.keys())
                .extracting(SigningKeyInfo::keyId, SigningKeyInfo::state, SigningKeyInfo::retired)
                .containsExactly(
                        tuple(oldKid, KeyState.RETIRED, START.plus(Duration.ofMinutes(2))),
                        tuple(newKid, KeyState.ACTIVE, null));
        assertThat(kids(activated.publicJwksJson())).containsExactlyInAnyOrder(oldKid, newKid);
        assertThat(kids(published.publicJwksJson())).containsExactlyInAnyOrder(oldKid, newKid);

        assertThat(activated.retireOlderThan(START.plus(Duration.ofMinutes(2)))).isSameAs(activated);
        KeyRing cleaned =
                activated.retireOlderThan(START.plus(Duration.ofMinutes(2)).plusMillis(1));
        assertThat(cleaned.keys()).extracting(SigningKeyInfo::keyId).containsExactly(newKid);
        assertThat(kids(cleaned.publicJwksJson())).containsExactly(newKid);
        assertThat(first.keys()).as("rings are immutable").hasSize(1);
    }

    @Test
    void refusesTransitionsOutOfOrder() {
        KeyRing ring = KeyRing.generate(clock);

        assertThatThrownBy(ring::activateNext).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> ring.publishNext().publishNext()).isInstanceOf(IllegalStateException.class);
        assertThat(KeyState.NEXT.canBecome(KeyState.ACTIVE)).isTrue();
        assertThat(KeyState.ACTIVE.canBecome(KeyState.RETIRED)).isTrue();
        assertThat(KeyState.RETIRED.canBecome(KeyState.ACTIVE)).isFalse();
        assertThat(KeyState.ACTIVE.canBecome(KeyState.NEXT)).isFalse();
        assertThat(KeyState.NEXT.canBecome(KeyState.RETIRED)).isFalse();
    }

    @Test
    void publicJwksHoldsNoPrivateMaterial() throws Exception {
        KeyRing ring = KeyRing.generate(clock).publishNext();

        String jwks = ring.publicJwksJson();

        assertThat(jwks).doesNotContain("\"d\"");
        assertThat(JWKSet.parse(jwks).getKeys()).allSatisfy(key -> {
            assertThat(key.isPrivate()).isFalse();
            assertThat(key).isInstanceOf(OctetKeyPair.class);
            assertThat(key.getAlgorithm().getName()).isEqualTo("EdDSA");
        });
        assertThat(ring.toString()).doesNotContain(ring.activeKey().getD().toString());
    }

    @Test
    void privateJsonRoundTripsEveryKeyItsStateAndTimesAndStillSigns() {
        KeyRing ring = KeyRing.generate(clock);
        clock.advance(Duration.ofSeconds(90));
        ring = ring.publishNext().activateNext();
        clock.advance(Duration.ofSeconds(90));
        ring = ring.publishNext();

        KeyRing restored = KeyRing.fromJson(ring.toJson(), clock);

        assertThat(restored.keys()).isEqualTo(ring.keys());
        assertThat(restored.activeKeyId()).isEqualTo(ring.activeKeyId());
        assertThat(restored.publicJwksJson()).isEqualTo(ring.publicJwksJson());
        String token = AdmissionTokenIssuer.of(restored)
                .issue(new AdmissionClaims(
                        "evt-1",
                        1,
                        "g",
                        "s",
                        "v",
                        clock.instant(),
                        clock.instant().plusSeconds(60),
                        "j"));
        assertThat(AdmissionTokenVerifier.of(ring::publicJwksJson, clock)
                        .verify(token, "evt-1", 1)
                        .tokenId())
                .isEqualTo("j");
    }

    @Test
    void refusesBrokenPrivateJsonWithoutEchoingIt() {
        KeyRing ring = KeyRing.generate(clock);
        String json = ring.toJson();
        String secret = ring.activeKey().getD().toString();

        assertThatThrownBy(() -> KeyRing.fromJson("not json")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRing.fromJson("{\"version\":2,\"keys\":[]}"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRing.fromJson("{\"version\":1,\"keys\":[]}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("exactly one ACTIVE");
        assertThatThrownBy(() -> KeyRing.fromJson(json.replace("\"ACTIVE\"", "\"NEXT\"")))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));
        assertThatThrownBy(() -> KeyRing.fromJson(json.replace("\"d\":", "\"dd\":")))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(secret));
        String otherX = KeyRing.generate(clock).activeKey().getX().toString();
        assertThatThrownBy(() ->
                        KeyRing.fromJson(json.replace(ring.activeKey().getX().toString(), otherX)))
                .as("d and x of different keys")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRing.fromJson(json.replace("\"jwk\":", "\"key\":")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRing.fromJson(json.replace("\"ACTIVE\"", "\"GONE\"")))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> KeyRing.fromJson(
                        json.replaceFirst("\"kid\":\"" + ring.activeKeyId() + "\"", "\"kid\":\"other\"")))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static java.util.List<String> kids(String jwks) throws java.text.ParseException {
        return JWKSet.parse(jwks).getKeys().stream().map(k -> k.getKeyID()).toList();
    }
}
