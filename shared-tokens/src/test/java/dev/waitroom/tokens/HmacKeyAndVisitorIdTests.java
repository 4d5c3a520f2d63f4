package dev.waitroom.tokens;

import static dev.waitroom.tokens.QueueTicketCodecTests.random;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class HmacKeyAndVisitorIdTests {

    @Test
    void derivesAStableKeyIdFromTheSecretAndHidesTheSecret() {
        byte[] secret = random(32);
        String base64 = Base64.getEncoder().encodeToString(secret);

        HmacKey key = HmacKey.fromBase64(base64);

        assertThat(key).isEqualTo(HmacKey.of(secret));
        assertThat(HmacKey.fromBase64(Base64.getUrlEncoder().withoutPadding().encodeToString(secret)))
                .isEqualTo(key);
        assertThat(key.keyId())
                .matches("[A-Za-z0-9_-]{8}")
                .isNotEqualTo(HmacKey.of(random(32)).keyId());
        assertThat(key.toString()).doesNotContain(base64).contains("hidden");
        assertThat(key.secret()).isEqualTo(secret).isNotSameAs(key.secret());
    }

    @Test
    void refusesWeakOrInvalidKeysWithoutEchoingThem() {
        assertThatThrownBy(() -> HmacKey.of(new byte[31])).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HmacKey.fromBase64("  ")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> HmacKey.fromBase64("s3cr3t!!not-base64"))
                .isInstanceOf(IllegalArgumentException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cr3t"));
        assertThatThrownBy(() -> new HmacKey("../k", random(32))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new HmacKey("k.1", random(32))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void copiesTheSecretSoCallersCannotChangeIt() {
        byte[] secret = random(32);
        HmacKey key = new HmacKey("k1", secret);
        byte[] original = secret.clone();

        secret[0] ^= 1;
        key.secret()[1] ^= 1;

        assertThat(key.secret()).isEqualTo(original);
    }

    @Test
    void randomVisitorIdsAreCanonicalAndDistinct() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            VisitorId id = VisitorId.random();
            assertThat(id.value()).hasSize(22).matches("[A-Za-z0-9_-]{22}");
            assertThat(Base64.getUrlDecoder().decode(id.value())).hasSize(16);
            assertThat(seen.add(id.value())).isTrue();
        }
    }

    @Test
    void refusesMalformedVisitorIds() {
        String valid = VisitorId.random().value();

        assertThat(VisitorId.isValid(valid)).isTrue();
        assertThat(VisitorId.isValid(null)).isFalse();
        assertThat(VisitorId.isValid(valid.substring(1))).isFalse();
        assertThat(VisitorId.isValid(valid + "A")).isFalse();
        assertThat(VisitorId.isValid(valid.substring(0, 21) + "B"))
                .as("non-canonical last character")
                .isFalse();
        assertThat(VisitorId.isValid(valid.substring(0, 21).replace(valid.charAt(0), '+') + "A"))
                .isFalse();
        assertThat(VisitorId.isValid("AAAAAAAAAAAAAAAAAAAA/A")).isFalse();
        assertThatThrownBy(() -> new VisitorId("../../etc/passwd000000")).isInstanceOf(IllegalArgumentException.class);
    }
}
