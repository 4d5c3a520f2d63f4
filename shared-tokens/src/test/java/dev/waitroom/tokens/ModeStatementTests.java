package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * The coordinator's signed mode (issue #28, finding 2): only a statement signed with a published key, of this event,
 * unexpired, is believed; whoever can write the queue's state cannot make one.
 */
class ModeStatementTests {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private final MutableClock clock = new MutableClock(START);
    private final KeyRing ring = KeyRing.generate(clock);
    private final ModeStatementSigner signer = ModeStatementSigner.of(ring);
    private final AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(ring::publicJwksJson, clock);

    @Test
    void aSignedStatementVerifiesWithItsEventModeGenerationAndExpiry() {
        String jws = signer.sign(ModeStatement.of("evt-1", "BYPASS", 2, clock.instant()));

        ModeStatement verified = verifier.verifyModeStatement(jws, "evt-1");

        assertThat(verified.bypass()).isTrue();
        assertThat(verified.saleGeneration()).isEqualTo(2);
        assertThat(verified.issuedAt()).isEqualTo(START);
        assertThat(verified.expiresAt()).isEqualTo(START.plus(ModeStatement.DEFAULT_TTL));
    }

    @Test
    void aStatementOfAnotherEventIsRefused() {
        String jws = signer.sign(ModeStatement.of("evt-2", "BYPASS", 1, clock.instant()));

        assertRejected(() -> verifier.verifyModeStatement(jws, "evt-1"), RejectionReason.WRONG_EVENT);
    }

    @Test
    void anExpiredStatementIsRefusedAfterTheSmallSkew() {
        String jws = signer.sign(ModeStatement.of("evt-1", "BYPASS", 1, clock.instant()));
        clock.advance(ModeStatement.DEFAULT_TTL.plus(AdmissionTokenVerifier.MODE_STATEMENT_SKEW));

        assertRejected(() -> verifier.verifyModeStatement(jws, "evt-1"), RejectionReason.EXPIRED);
    }

    @Test
    void aStatementSignedWithAnyOtherKeyIsRefused() {
        KeyRing other = KeyRing.generate(clock);
        String forged = ModeStatementSigner.of(other).sign(ModeStatement.of("evt-1", "BYPASS", 1, clock.instant()));

        assertRejected(() -> verifier.verifyModeStatement(forged, "evt-1"), RejectionReason.UNKNOWN_KEY);
        // the published key id, with another key's signature
        JwtForge sameKid = statementForge(ring.activeKeyId());
        assertRejected(
                () -> verifier.verifyModeStatement(sameKid.signedWith(other.activeKey()), "evt-1"),
                RejectionReason.BAD_SIGNATURE);
    }

    @Test
    void anAlteredStatementIsRefused() {
        String jws = signer.sign(ModeStatement.of("evt-1", "QUEUEING", 1, clock.instant()));
        String[] parts = jws.split("\\.");
        JwtForge bypass = statementForge(ring.activeKeyId());
        String altered = bypass.signingInput().split("\\.")[0] + "."
                + bypass.signingInput().split("\\.")[1] + "." + parts[2];

        assertRejected(() -> verifier.verifyModeStatement(altered, "evt-1"), RejectionReason.BAD_SIGNATURE);
    }

    @Test
    void anAdmissionTokenIsNoStatementAndAStatementIsNoAdmissionToken() {
        Instant now = clock.instant();
        String token = AdmissionTokenIssuer.of(ring)
                .issue(new AdmissionClaims("evt-1", 1, "g", "s", "v", now, now.plusSeconds(60), "j"));
        String statement = signer.sign(ModeStatement.of("evt-1", "BYPASS", 1, now));

        assertRejected(() -> verifier.verifyModeStatement(token, "evt-1"), RejectionReason.WRONG_TYPE);
        assertRejected(() -> verifier.verify(statement, "evt-1", 1), RejectionReason.WRONG_TYPE);
        // the statement's typ on an admission token's claims: wrong issuer and audience
        JwtForge typed = JwtForge.valid(ring.activeKeyId(), now).header("typ", "wr-mode+jwt");
        assertRejected(
                () -> verifier.verifyModeStatement(typed.signedWith(ring.activeKey()), "evt-1"),
                RejectionReason.WRONG_ISSUER);
    }

    @Test
    void unsignedAndHmacStatementsAreRefusedBeforeAnyKeyIsUsed() {
        JwtForge none = statementForge(ring.activeKeyId()).header("alg", "none");
        assertRejected(
                () -> verifier.verifyModeStatement(none.unsigned(), "evt-1"), RejectionReason.UNSUPPORTED_ALGORITHM);
        JwtForge hmac = statementForge(ring.activeKeyId()).header("alg", "HS256");
        assertRejected(
                () -> verifier.verifyModeStatement(hmac.hmacSignedWith(new byte[32]), "evt-1"),
                RejectionReason.UNSUPPORTED_ALGORITHM);
        assertRejected(() -> verifier.verifyModeStatement(null, "evt-1"), RejectionReason.MALFORMED);
        assertRejected(() -> verifier.verifyModeStatement("x".repeat(9000), "evt-1"), RejectionReason.TOO_LARGE);
    }

    @Test
    void aStatementWhoseExpiryIsFarAheadStillCannotBeIssuedInTheFuture() {
        JwtForge future = statementForge(ring.activeKeyId())
                .claim("iat", START.plus(Duration.ofMinutes(5)).getEpochSecond())
                .claim("exp", START.plus(Duration.ofMinutes(6)).getEpochSecond());

        assertRejected(
                () -> verifier.verifyModeStatement(future.signedWith(ring.activeKey()), "evt-1"),
                RejectionReason.NOT_YET_VALID);
    }

    private JwtForge statementForge(String kid) {
        JwtForge forge = new JwtForge();
        forge.header("alg", "EdDSA").header("typ", "wr-mode+jwt").header("kid", kid);
        forge.claim("iss", "waitroom-coordinator")
                .claim("aud", "waitroom-gateway")
                .claim("evt", "evt-1")
                .claim("mode", "BYPASS")
                .claim("gen", 1L)
                .claim("iat", START.getEpochSecond())
                .claim("exp", START.getEpochSecond() + 30);
        return forge;
    }

    private static void assertRejected(ThrowingCallable call, RejectionReason reason) {
        assertThatThrownBy(call)
                .isInstanceOfSatisfying(
                        TokenRejectedException.class,
                        ex -> assertThat(ex.reason()).isEqualTo(reason));
    }
}
