package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.crypto.tink.subtle.Ed25519Sign;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * Generates docs/integration/admission-header-vectors.json, the test vectors every verifier (Java, Node, an origin's
 * own) must pass, from fixed test keys, and fails when the file in the repository is not what this code generates
 * (Ed25519 is deterministic). After a deliberate format change regenerate it with {@code ./mvnw -pl shared-tokens test
 * -Dtest=AdmissionHeaderVectorsTests -Dwaitroom.vectors.update=true}.
 */
class AdmissionHeaderVectorsTests {

    static final Path FILE = Path.of("..", "docs", "integration", "admission-header-vectors.json");

    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
    private static final long NOW = 1_798_761_600L; // 2027-01-01T00:00:00Z
    private static final int SKEW = 5;
    private static final String AUDIENCE = "shop.example";
    private static final String EVENT = "summer-tour";
    private static final String PATH = "/events/summer-tour/shop/seats";

    private static final AdmissionHeaderKey CURRENT = testKey("current");
    private static final AdmissionHeaderKey PREVIOUS = testKey("previous");
    private static final AdmissionHeaderKey UNPUBLISHED = testKey("unpublished");

    @Test
    void theVectorsFileIsWhatTheSignerProduces() throws IOException {
        String generated = generate();
        if (Boolean.getBoolean("waitroom.vectors.update")) {
            Files.createDirectories(FILE.getParent());
            Files.writeString(FILE, generated, StandardCharsets.UTF_8);
        }
        assertThat(Files.exists(FILE))
                .as("%s missing: run with -Dwaitroom.vectors.update=true", FILE)
                .isTrue();
        assertThat(Files.readString(FILE, StandardCharsets.UTF_8))
                .as("%s is stale: regenerate it with -Dwaitroom.vectors.update=true", FILE)
                .isEqualTo(generated);
    }

    static String generate() {
        List<String> vectors = new ArrayList<>();
        AdmissionHeaderSigner current = AdmissionHeaderSigner.of(CURRENT, PREVIOUS);
        AdmissionHeaderSigner previous = AdmissionHeaderSigner.of(PREVIOUS, null);
        AdmissionHeaderSigner unpublished = AdmissionHeaderSigner.of(UNPUBLISHED, null);
        AdmissionHeader shopping = statement(AdmissionHeader.Scope.SHOPPING, "GET", PATH);
        String valid = current.sign(shopping);
        String[] parts = valid.split("\\.");

        vectors.add(valid("valid", valid, "GET", PATH, NOW + 10, shopping));
        vectors.add(valid("valid-previous-key", previous.sign(shopping), "GET", PATH, NOW + 10, shopping));
        vectors.add(valid("valid-at-the-skew-limit", valid, "GET", PATH, NOW + 30 + SKEW, shopping));
        AdmissionHeader hold = statement(AdmissionHeader.Scope.SHOPPING, "POST", "/events/summer-tour/shop/holds");
        vectors.add(valid("valid-post", current.sign(hold), "POST", hold.path(), NOW + 1, hold));
        AdmissionHeader encoded =
                statement(AdmissionHeader.Scope.ORDER_STATUS, "GET", "/events/summer-tour/shop/orders/o%2F1%20x");
        vectors.add(valid(
                "valid-order-status-percent-encoded-path",
                current.sign(encoded),
                "GET",
                encoded.path(),
                NOW + 1,
                encoded));
        AdmissionHeader bypass = new AdmissionHeader(
                AUDIENCE,
                EVENT,
                "bypass-v-7Qm2",
                "v-7Qm2",
                3,
                AdmissionHeader.Scope.BYPASS,
                "GET",
                PATH,
                Instant.ofEpochSecond(NOW),
                Instant.ofEpochSecond(NOW + 30));
        vectors.add(valid("valid-bypass", current.sign(bypass), "GET", PATH, NOW + 1, bypass));

        vectors.add(invalid("expired", valid, "GET", PATH, NOW + 30 + SKEW + 1, "expired"));
        vectors.add(invalid("not-yet-valid", valid, "GET", PATH, NOW - SKEW - 1, "not-yet-valid"));
        vectors.add(invalid("wrong-event", valid, EVENT + "-2", "GET", PATH, NOW + 1, "wrong-event"));
        vectors.add(invalid("wrong-path", valid, "GET", PATH + "/", NOW + 1, "wrong-path"));
        vectors.add(invalid(
                "wrong-path-case", valid, "GET", PATH.toUpperCase(java.util.Locale.ROOT), NOW + 1, "wrong-path"));
        vectors.add(invalid("wrong-method", valid, "POST", PATH, NOW + 1, "wrong-method"));
        vectors.add(
                invalidFor("wrong-audience", valid, "other.example", EVENT, "GET", PATH, NOW + 1, "wrong-audience"));
        vectors.add(invalid(
                "tampered-signature",
                parts[0] + "." + parts[1] + "." + flip(parts[2]),
                "GET",
                PATH,
                NOW + 1,
                "bad-signature"));
        String otherSession = current.sign(new AdmissionHeader(
                AUDIENCE,
                EVENT,
                "s-other",
                "v-other",
                7,
                AdmissionHeader.Scope.SHOPPING,
                "GET",
                PATH,
                Instant.ofEpochSecond(NOW),
                Instant.ofEpochSecond(NOW + 30)));
        vectors.add(invalid(
                "tampered-claims",
                parts[0] + "." + otherSession.split("\\.")[1] + "." + parts[2],
                "GET",
                PATH,
                NOW + 1,
                "bad-signature"));
        vectors.add(invalid("unknown-kid", unpublished.sign(shopping), "GET", PATH, NOW + 1, "unknown-key"));
        String previousKid = header(
                "{\"alg\":\"EdDSA\",\"typ\":\"" + AdmissionHeader.TYPE + "\",\"kid\":\"" + PREVIOUS.keyId() + "\"}");
        vectors.add(invalid(
                "kid-of-another-published-key",
                signed(CURRENT, previousKid, parts[1]),
                "GET",
                PATH,
                NOW + 1,
                "bad-signature"));
        vectors.add(invalid(
                "alg-none",
                header("{\"alg\":\"none\",\"typ\":\"" + AdmissionHeader.TYPE + "\",\"kid\":\"" + CURRENT.keyId()
                                + "\"}")
                        + "." + parts[1] + ".",
                "GET",
                PATH,
                NOW + 1,
                "unsupported-algorithm"));
        String hs256 = header(
                "{\"alg\":\"HS256\",\"typ\":\"" + AdmissionHeader.TYPE + "\",\"kid\":\"" + CURRENT.keyId() + "\"}");
        vectors.add(invalid(
                "alg-hs256-keyed-with-the-public-key",
                hs256 + "." + parts[1] + "." + hmac(CURRENT.publicKey(), hs256 + "." + parts[1]),
                "GET",
                PATH,
                NOW + 1,
                "unsupported-algorithm"));
        vectors.add(invalid(
                "wrong-typ",
                signed(
                        CURRENT,
                        header("{\"alg\":\"EdDSA\",\"typ\":\"JWT\",\"kid\":\"" + CURRENT.keyId() + "\"}"),
                        parts[1]),
                "GET",
                PATH,
                NOW + 1,
                "wrong-type"));
        vectors.add(invalid(
                "extra-header-jku",
                signed(
                        CURRENT,
                        header("{\"alg\":\"EdDSA\",\"typ\":\""
                                + AdmissionHeader.TYPE + "\",\"kid\":\"" + CURRENT.keyId()
                                + "\",\"jku\":\"https://attacker.example/keys\"}"),
                        parts[1]),
                "GET",
                PATH,
                NOW + 1,
                "malformed"));
        vectors.add(invalid(
                "lifetime-too-long",
                signedClaims(claims(EVENT, "\"s-1\"", "3", NOW, NOW + 3600)),
                "GET",
                PATH,
                NOW + 1,
                "lifetime-too-long"));
        vectors.add(invalid(
                "wrong-issuer",
                signedClaims(claims(EVENT, "\"s-1\"", "3", NOW, NOW + 30)
                        .replace("\"iss\":\"waitroom\"", "\"iss\":\"someone-else\"")),
                "GET",
                PATH,
                NOW + 1,
                "wrong-issuer"));
        vectors.add(invalid(
                "missing-session",
                signedClaims(claims(EVENT, "\"s-1\"", "3", NOW, NOW + 30).replace("\"sid\":\"s-1\",", "")),
                "GET",
                PATH,
                NOW + 1,
                "malformed"));
        vectors.add(invalid(
                "generation-as-string",
                signedClaims(claims(EVENT, "\"s-1\"", "\"3\"", NOW, NOW + 30)),
                "GET",
                PATH,
                NOW + 1,
                "malformed"));
        vectors.add(invalid("not-a-jws", "not-a-jws", "GET", PATH, NOW + 1, "malformed"));
        vectors.add(invalid("four-segments", valid + ".x", "GET", PATH, NOW + 1, "malformed"));
        vectors.add(invalid(
                "padded-base64", parts[0] + "=." + parts[1] + "." + parts[2], "GET", PATH, NOW + 1, "malformed"));

        return "{\n"
                + "  \"description\": \"Test vectors of the Waitroom-Admission header (docs/integration/admission-header.md)."
                + " Generated by shared-tokens AdmissionHeaderVectorsTests; do not edit by hand.\",\n"
                + "  \"clockSkewSeconds\": " + SKEW + ",\n"
                + "  \"jwks\": " + current.jwks() + ",\n"
                + "  \"testOnlySeeds\": {\"current\": \"" + seed("current") + "\", \"previous\": \"" + seed("previous")
                + "\", \"unpublished\": \"" + seed("unpublished") + "\"},\n"
                + "  \"vectors\": [\n    " + String.join(",\n    ", vectors) + "\n  ]\n"
                + "}\n";
    }

    private static AdmissionHeader statement(AdmissionHeader.Scope scope, String method, String path) {
        return new AdmissionHeader(
                AUDIENCE,
                EVENT,
                "s-1",
                "v-9f3Kx2",
                3,
                scope,
                method,
                path,
                Instant.ofEpochSecond(NOW),
                Instant.ofEpochSecond(NOW + 30));
    }

    private static String valid(
            String name, String token, String method, String path, long now, AdmissionHeader claims) {
        return "{" + check(name, token, AUDIENCE, EVENT, method, path, now) + ", \"valid\": true, \"claims\": "
                + claimsOf(token) + "}";
    }

    private static String invalid(String name, String token, String method, String path, long now, String reason) {
        return invalidFor(name, token, AUDIENCE, EVENT, method, path, now, reason);
    }

    private static String invalid(
            String name, String token, String event, String method, String path, long now, String reason) {
        return invalidFor(name, token, AUDIENCE, event, method, path, now, reason);
    }

    private static String invalidFor(
            String name,
            String token,
            String audience,
            String event,
            String method,
            String path,
            long now,
            String reason) {
        return "{" + check(name, token, audience, event, method, path, now) + ", \"valid\": false, \"reason\": \""
                + reason + "\"}";
    }

    private static String check(
            String name, String token, String audience, String event, String method, String path, long now) {
        return "\"name\": \"" + name + "\", \"token\": \"" + token + "\", \"audience\": \"" + audience
                + "\", \"event\": \"" + event + "\", \"method\": \"" + method + "\", \"path\": \"" + path
                + "\", \"now\": " + now;
    }

    private static String claimsOf(String token) {
        return new String(Base64.getUrlDecoder().decode(token.split("\\.")[1]), StandardCharsets.UTF_8);
    }

    private static String claims(String event, String session, String generation, long iat, long exp) {
        return "{\"iss\":\"waitroom\",\"aud\":\"" + AUDIENCE + "\",\"evt\":\"" + event + "\",\"sid\":" + session
                + ",\"sub\":\"v-9f3Kx2\",\"gen\":" + generation + ",\"scp\":\"shopping\",\"htm\":\"GET\",\"htp\":\""
                + PATH + "\",\"iat\":" + iat + ",\"exp\":" + exp + "}";
    }

    private static String signedClaims(String claimsJson) {
        return signed(
                CURRENT,
                header("{\"alg\":\"EdDSA\",\"typ\":\"" + AdmissionHeader.TYPE + "\",\"kid\":\"" + CURRENT.keyId()
                        + "\"}"),
                B64.encodeToString(claimsJson.getBytes(StandardCharsets.UTF_8)));
    }

    private static String header(String json) {
        return B64.encodeToString(json.getBytes(StandardCharsets.UTF_8));
    }

    private static String signed(AdmissionHeaderKey key, String encodedHeader, String encodedClaims) {
        try {
            String input = encodedHeader + "." + encodedClaims;
            return input + "."
                    + B64.encodeToString(
                            new Ed25519Sign(key.seedBytes()).sign(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String hmac(byte[] key, String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return B64.encodeToString(mac.doFinal(input.getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Changes the signature's first character (still canonical base64url: the first of 86 carries 6 full bits). */
    private static String flip(String signature) {
        char first = signature.charAt(0);
        return (first == 'A' ? 'B' : 'A') + signature.substring(1);
    }

    static AdmissionHeaderKey testKey(String label) {
        return AdmissionHeaderKey.fromBase64(seed(label));
    }

    /** SHA-256 of {@code waitroom admission-header test key <label>}: published, for tests only. */
    private static String seed(String label) {
        try {
            return B64.encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(("waitroom admission-header test key " + label).getBytes(StandardCharsets.US_ASCII)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
