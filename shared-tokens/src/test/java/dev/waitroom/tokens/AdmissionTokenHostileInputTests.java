package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.OctetKeyPair;
import dev.waitroom.tokens.internal.Ed25519Keys;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every row is one hostile admission token and the one reason it must be refused for. The
 * verifier expects event {@code evt-1} at sale generation 3.
 */
class AdmissionTokenHostileInputTests {

    static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    static final MutableClock CLOCK = new MutableClock(NOW);
    /** Signed a while ago, then retired and removed from the ring. */
    static final KeyRing OLD_RING = KeyRing.generate(CLOCK);

    static final OctetKeyPair REMOVED_KEY = OLD_RING.activeKey();
    static final KeyRing RING = OLD_RING.publishNext().activateNext().retireOlderThan(NOW.plusSeconds(1));
    static final OctetKeyPair KEY = RING.activeKey();
    static final String KID = RING.activeKeyId();
    static final OctetKeyPair ATTACKER = Ed25519Keys.generate();
    static final AtomicInteger FETCHES = new AtomicInteger();
    static final AdmissionTokenVerifier VERIFIER = AdmissionTokenVerifier.of(
            () -> {
                FETCHES.incrementAndGet();
                return RING.publicJwksJson();
            },
            CLOCK);

    static JwtForge valid() {
        return JwtForge.valid(KID, NOW);
    }

    static Stream<Arguments> hostileTokens() {
        List<Row> rows = List.of(
                new Row(
                        "alg none, no signature",
                        () -> valid().header("alg", "none").unsigned(),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "alg none, with a real signature",
                        () -> valid().header("alg", "none").signedWith(KEY),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "HS256 keyed with the public key bytes",
                        () -> valid().header("alg", "HS256").hmacSignedWith(KEY.getDecodedX()),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "HS256 keyed with the JWKS text",
                        () -> valid().header("alg", "HS256")
                                .hmacSignedWith(RING.publicJwksJson().getBytes()),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "ES256",
                        () -> valid().header("alg", "ES256").signedWith(KEY),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "alg spelled eddsa",
                        () -> valid().header("alg", "eddsa").signedWith(KEY),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "alg missing",
                        () -> valid().header("alg", null).signedWith(KEY),
                        RejectionReason.UNSUPPORTED_ALGORITHM),
                new Row(
                        "unknown kid, signed by that unknown key",
                        () -> JwtForge.valid(ATTACKER.getKeyID(), NOW).signedWith(ATTACKER),
                        RejectionReason.UNKNOWN_KEY),
                new Row(
                        "valid signature by a retired and removed key",
                        () -> JwtForge.valid(REMOVED_KEY.getKeyID(), NOW).signedWith(REMOVED_KEY),
                        RejectionReason.UNKNOWN_KEY),
                new Row(
                        "kid with a path",
                        () -> valid().header("kid", "../../etc/passwd").signedWith(KEY),
                        RejectionReason.MALFORMED),
                new Row(
                        "kid with SQL",
                        () -> valid().header("kid", "x' OR '1'='1").signedWith(KEY),
                        RejectionReason.MALFORMED),
                new Row(
                        "kid too long",
                        () -> valid().header("kid", "k".repeat(65)).signedWith(KEY),
                        RejectionReason.MALFORMED),
                new Row("kid not a string", () -> valid().header("kid", 7L).signedWith(KEY), RejectionReason.MALFORMED),
                new Row(
                        "kid missing",
                        () -> valid().header("kid", null).signedWith(KEY),
                        RejectionReason.MISSING_CLAIM),
                new Row(
                        "jku header",
                        () -> valid().header("jku", "https://attacker.example/jwks.json")
                                .signedWith(KEY),
                        RejectionReason.FORBIDDEN_HEADER),
                new Row(
                        "x5u header",
                        () -> valid().header("x5u", "https://attacker.example/cert.pem")
                                .signedWith(KEY),
                        RejectionReason.FORBIDDEN_HEADER),
                new Row(
                        "embedded jwk of the attacker, signed by the attacker",
                        () -> JwtForge.valid(ATTACKER.getKeyID(), NOW)
                                .header("jwk", ATTACKER.toPublicJWK().toJSONObject())
                                .signedWith(ATTACKER),
                        RejectionReason.FORBIDDEN_HEADER),
                new Row(
                        "x5c header",
                        () -> valid().header("x5c", List.of("MIIB")).signedWith(KEY),
                        RejectionReason.FORBIDDEN_HEADER),
                new Row(
                        "crit header",
                        () -> valid().header("crit", List.of("exp")).signedWith(KEY),
                        RejectionReason.FORBIDDEN_HEADER),
                new Row("wrong typ", () -> valid().header("typ", "JWT").signedWith(KEY), RejectionReason.WRONG_TYPE),
                new Row("typ missing", () -> valid().header("typ", null).signedWith(KEY), RejectionReason.WRONG_TYPE),
                new Row(
                        "wrong issuer",
                        () -> valid().claim("iss", "evil").signedWith(KEY),
                        RejectionReason.WRONG_ISSUER),
                new Row(
                        "wrong audience",
                        () -> valid().claim("aud", "waitroom-admin").signedWith(KEY),
                        RejectionReason.WRONG_AUDIENCE),
                new Row(
                        "audience array without ours",
                        () -> valid().claim("aud", List.of("a", "b")).signedWith(KEY),
                        RejectionReason.WRONG_AUDIENCE),
                new Row(
                        "another event",
                        () -> valid().claim("evt", "evt-2").signedWith(KEY),
                        RejectionReason.WRONG_EVENT),
                new Row(
                        "older sale generation",
                        () -> valid().claim("gen", 2L).signedWith(KEY),
                        RejectionReason.OLD_GENERATION),
                new Row(
                        "expired beyond the skew",
                        () -> valid().claim("iat", NOW.getEpochSecond() - 600)
                                .claim("exp", NOW.getEpochSecond() - 31)
                                .signedWith(KEY),
                        RejectionReason.EXPIRED),
                new Row(
                        "issued in the future beyond the skew",
                        () -> valid().claim("iat", NOW.getEpochSecond() + 31)
                                .claim("exp", NOW.getEpochSecond() + 600)
                                .signedWith(KEY),
                        RejectionReason.NOT_YET_VALID),
                new Row(
                        "not-before in the future beyond the skew",
                        () -> valid().claim("nbf", NOW.getEpochSecond() + 60).signedWith(KEY),
                        RejectionReason.NOT_YET_VALID),
                missing("iss"),
                missing("aud"),
                missing("evt"),
                missing("gen"),
                missing("gid"),
                missing("sid"),
                missing("sub"),
                missing("iat"),
                missing("exp"),
                missing("jti"),
                new Row("gen as a string", () -> valid().claim("gen", "3").signedWith(KEY), RejectionReason.MALFORMED),
                new Row(
                        "exp as a fraction",
                        () -> valid().claim("exp", 1.5e9).signedWith(KEY),
                        RejectionReason.MALFORMED),
                new Row(
                        "exp before iat",
                        () -> valid().claim("exp", NOW.getEpochSecond() - 1).signedWith(KEY),
                        RejectionReason.MALFORMED),
                new Row("empty string", () -> "", RejectionReason.MALFORMED),
                new Row("null", () -> null, RejectionReason.MALFORMED),
                new Row(
                        "truncated: signature segment dropped",
                        () -> {
                            String token = valid().signedWith(KEY);
                            return token.substring(0, token.lastIndexOf('.'));
                        },
                        RejectionReason.MALFORMED),
                new Row(
                        "truncated mid-signature",
                        () -> {
                            String token = valid().signedWith(KEY);
                            return token.substring(0, token.length() - 10);
                        },
                        RejectionReason.BAD_SIGNATURE),
                new Row(
                        "extra segments (JWE shape)",
                        () -> valid().signedWith(KEY) + ".AAAA.BBBB",
                        RejectionReason.MALFORMED),
                new Row(
                        "bad base64 in the payload",
                        () -> {
                            String[] parts = valid().signedWith(KEY).split("\\.");
                            return parts[0] + "." + parts[1].substring(0, 10) + "*" + parts[1].substring(11) + "."
                                    + parts[2];
                        },
                        RejectionReason.MALFORMED),
                new Row("padded base64 signature", () -> valid().signedWith(KEY) + "==", RejectionReason.MALFORMED),
                new Row(
                        "non-JSON header",
                        () -> JwtForge.B64.encodeToString("not json".getBytes()) + "."
                                + JwtForge.encodeJson(valid().claims) + ".AAAA",
                        RejectionReason.MALFORMED),
                new Row(
                        "header is a JSON array",
                        () -> JwtForge.B64.encodeToString("[1,2]".getBytes()) + "."
                                + JwtForge.encodeJson(valid().claims) + ".AAAA",
                        RejectionReason.MALFORMED),
                new Row(
                        "header with a duplicate alg",
                        () -> JwtForge.B64.encodeToString(
                                        ("{\"alg\":\"EdDSA\",\"alg\":\"none\",\"typ\":\"wr-admission+jwt\",\"kid\":\""
                                                        + KID + "\"}")
                                                .getBytes())
                                + "." + JwtForge.encodeJson(valid().claims) + ".AAAA",
                        RejectionReason.MALFORMED),
                new Row(
                        "deeply nested header",
                        () -> JwtForge.B64.encodeToString(
                                        ("{\"alg\":\"EdDSA\",\"x\":" + "[".repeat(2000) + "]".repeat(2000) + "}")
                                                .getBytes())
                                + "." + JwtForge.encodeJson(valid().claims)
                                + ".AAAA",
                        RejectionReason.MALFORMED),
                new Row(
                        "token over 8 KiB",
                        () -> valid().claim("pad", "x".repeat(8 * 1024)).signedWith(KEY),
                        RejectionReason.TOO_LARGE),
                new Row(
                        "tampered payload under the original signature",
                        () -> {
                            String[] parts = valid().signedWith(KEY).split("\\.");
                            String raised = JwtForge.encodeJson(valid().claim("gen", 99L).claims);
                            return parts[0] + "." + raised + "." + parts[2];
                        },
                        RejectionReason.BAD_SIGNATURE),
                new Row(
                        "attacker signature under our kid",
                        () -> valid().signedWith(ATTACKER),
                        RejectionReason.BAD_SIGNATURE),
                new Row(
                        "signature of the wrong length",
                        () -> valid().signingInput() + "." + "A".repeat(84),
                        RejectionReason.BAD_SIGNATURE));
        return rows.stream().map(row -> Arguments.of(row.name(), row));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileTokens")
    void rejectsHostileTokenWithItsSpecificReason(String name, Row row) {
        String token = row.token().get();
        int fetchesBefore = FETCHES.get();

        assertThatThrownBy(() -> VERIFIER.verify(token, "evt-1", 3))
                .isInstanceOf(TokenRejectedException.class)
                .extracting(e -> ((TokenRejectedException) e).reason())
                .isEqualTo(row.reason());
        assertThat(VERIFIER.cachedTokens()).as("a rejection is never cached").isZero();
        assertThat(FETCHES.get() - fetchesBefore)
                .as("hostile input triggers at most one JWKS fetch")
                .isLessThanOrEqualTo(1);
    }

    @Test
    void theUntamperedBaselineOfTheTableIsAccepted() {
        AdmissionTokenVerifier fresh = AdmissionTokenVerifier.of(RING::publicJwksJson, CLOCK);

        AdmissionClaims claims = fresh.verify(valid().signedWith(KEY), "evt-1", 3);

        assertThat(claims.eventId()).isEqualTo("evt-1");
        assertThat(claims.saleGeneration()).isEqualTo(3);
        assertThat(claims.expiresAt()).isEqualTo(NOW.plusSeconds(600));
    }

    @Test
    void tableHasAtLeastTwentyRowsCoveringEveryReasonTheVerifierCanGive() {
        List<Row> rows = hostileTokens().map(a -> (Row) a.get()[1]).toList();

        assertThat(rows).hasSizeGreaterThanOrEqualTo(20);
        assertThat(rows.stream().map(Row::reason).distinct()).containsExactlyInAnyOrder(RejectionReason.values());
    }

    private static Row missing(String claim) {
        return new Row(
                "missing " + claim, () -> valid().claim(claim, null).signedWith(KEY), RejectionReason.MISSING_CLAIM);
    }

    record Row(String name, java.util.function.Supplier<String> token, RejectionReason reason) {
        @Override
        public String toString() {
            return name;
        }
    }
}
