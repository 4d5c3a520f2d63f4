package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.EdECPoint;
import java.security.spec.EdECPublicKeySpec;
import java.security.spec.NamedParameterSpec;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class AdmissionHeaderSignerTests {

    private static final Instant NOW = Instant.parse("2027-01-01T00:00:00.750Z");

    private final AdmissionHeaderKey key = AdmissionHeaderKey.generate();
    private final AdmissionHeaderKey previous = AdmissionHeaderKey.generate();
    private final AdmissionHeaderSigner signer = AdmissionHeaderSigner.of(key, previous);

    @Test
    void signsACompactJwsTheJdkVerifies() throws Exception {
        String header = signer.sign(statement("/events/e1/shop/seats"));
        String[] parts = header.split("\\.");

        assertThat(parts).hasSize(3);
        assertThat(decode(parts[0]))
                .isEqualTo("{\"alg\":\"EdDSA\",\"typ\":\"waitroom-admission+jwt\",\"kid\":\"" + key.keyId() + "\"}");
        assertThat(decode(parts[1]))
                .isEqualTo("{\"iss\":\"waitroom\",\"aud\":\"booking\",\"evt\":\"e1\",\"sid\":\"s-1\",\"sub\":\"v-1\","
                        + "\"gen\":4,\"scp\":\"shopping\",\"htm\":\"GET\",\"htp\":\"/events/e1/shop/seats\","
                        + "\"iat\":1798761600,\"exp\":1798761630}");
        Signature verify = Signature.getInstance("Ed25519");
        verify.initVerify(jdkKey(key.publicKey()));
        verify.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertThat(verify.verify(Base64.getUrlDecoder().decode(parts[2]))).isTrue();
        assertThat(header).hasSizeLessThan(450);
    }

    @Test
    void escapesJsonInValuesAndIsDeterministic() {
        String header = signer.sign(statement("/events/e1/shop/a\"b\\c"));

        assertThat(decode(header.split("\\.")[1])).contains("\"htp\":\"/events/e1/shop/a\\\"b\\\\c\"");
        assertThat(signer.sign(statement("/events/e1/shop/a\"b\\c"))).isEqualTo(header);
    }

    @Test
    void publishesTheCurrentAndThePreviousKeyWithIdsDerivedFromThePublicHalf() {
        assertThat(signer.jwks())
                .startsWith(
                        "{\"keys\":[{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"use\":\"sig\",\"alg\":\"EdDSA\",\"kid\":\""
                                + key.keyId() + "\"")
                .contains("\"kid\":\"" + previous.keyId() + "\"")
                .doesNotContain("\"d\"");
        assertThat(AdmissionHeaderKey.fromBase64(key.toBase64()).keyId()).isEqualTo(key.keyId());
        assertThat(key.keyId()).matches("wa-[A-Za-z0-9_-]{16}");
        assertThat(AdmissionHeaderSigner.of(key, key).jwks()).doesNotContain(previous.keyId());
        assertThat(AdmissionHeaderSigner.of(key, null).keyId()).isEqualTo(key.keyId());
    }

    @Test
    void refusesBadKeysWithoutEchoingThem() {
        assertThatThrownBy(() -> AdmissionHeaderKey.fromBase64(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("empty");
        assertThatThrownBy(() -> AdmissionHeaderKey.fromBase64("c2VjcmV0LXNlY3JldA=="))
                .hasMessageContaining("32 bytes")
                .hasMessageNotContaining("c2Vj");
        assertThatThrownBy(() -> AdmissionHeaderKey.fromBase64("!!not base64!!"))
                .hasMessage("admission-header key is not valid base64");
        assertThat(key.toString()).doesNotContain(key.toBase64());
    }

    @Test
    void statementsValidateThemselves() {
        assertThat(statement("/p").issuedAt()).isEqualTo(Instant.parse("2027-01-01T00:00:00Z"));
        assertThatThrownBy(() -> statement("/p?q=1")).hasMessageContaining("no query");
        assertThatThrownBy(() -> statement("p")).hasMessageContaining("start with /");
        assertThatThrownBy(() -> AdmissionHeader.forRequest(
                        "booking", "e1", "s-1", "v-1", 4, AdmissionHeader.Scope.SHOPPING, "get", "/p", NOW))
                .hasMessageContaining("method");
        assertThatThrownBy(() -> AdmissionHeader.forRequest(
                        "a b", "e1", "s-1", "v-1", 4, AdmissionHeader.Scope.SHOPPING, "GET", "/p", NOW))
                .hasMessageContaining("audience");
        assertThatThrownBy(() -> new AdmissionHeader(
                        "booking",
                        "e1",
                        "s-1",
                        "v-1",
                        4,
                        AdmissionHeader.Scope.SHOPPING,
                        "GET",
                        "/p",
                        Instant.ofEpochSecond(0),
                        Instant.ofEpochSecond(61)))
                .hasMessageContaining("at most");
        assertThatThrownBy(() -> AdmissionHeader.forRequest(
                        "booking", "e\n1", "s-1", "v-1", 4, AdmissionHeader.Scope.SHOPPING, "GET", "/p", NOW))
                .hasMessageContaining("control");
    }

    private static AdmissionHeader statement(String path) {
        return AdmissionHeader.forRequest(
                "booking", "e1", "s-1", "v-1", 4, AdmissionHeader.Scope.SHOPPING, "GET", path, NOW);
    }

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    /** RFC 8032: the little-endian y with the sign of x in the top bit of the last byte. */
    static PublicKey jdkKey(byte[] encoded) throws Exception {
        byte[] y = new byte[encoded.length];
        for (int i = 0; i < encoded.length; i++) {
            y[i] = encoded[encoded.length - 1 - i];
        }
        boolean xOdd = (y[0] & 0x80) != 0;
        y[0] &= 0x7F;
        return KeyFactory.getInstance("Ed25519")
                .generatePublic(
                        new EdECPublicKeySpec(NamedParameterSpec.ED25519, new EdECPoint(xOdd, new BigInteger(1, y))));
    }
}
