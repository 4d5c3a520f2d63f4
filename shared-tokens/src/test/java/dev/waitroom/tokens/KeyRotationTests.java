package dev.waitroom.tokens;

import static dev.waitroom.tokens.AdmissionTokenVerifierTests.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The rotation procedure of the README, end to end, with the coordinator's ring behind a JWKS
 * source and a gateway verifier in front, on one hand-moved clock.
 */
class KeyRotationTests {

    private static final Duration TOKEN_LIFETIME = Duration.ofMinutes(15);
    private static final Duration SKEW = AdmissionTokenVerifier.DEFAULT_SKEW;

    private final MutableClock clock = new MutableClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final AtomicReference<KeyRing> coordinator = new AtomicReference<>(KeyRing.generate(clock));
    private final AdmissionTokenVerifier gateway =
            AdmissionTokenVerifier.of(() -> coordinator.get().publicJwksJson(), clock);

    private String issue(String tokenId, Duration lifetime) {
        Instant now = clock.instant();
        return AdmissionTokenIssuer.of(coordinator.get())
                .issue(new AdmissionClaims(
                        "evt-1", 1, "grant", "session", "visitor", now, now.plus(lifetime), tokenId));
    }

    @Test
    void oldTokensVerifyThroughTheOverlapNewTokensAsSoonAsPublishedAndTheOldKeyGoesAway() {
        String oldKid = coordinator.get().activeKeyId();
        String oldToken = issue("old", TOKEN_LIFETIME);
        // a token signed with the old key that claims to live far longer than the policy allows
        String overlong = issue("overlong", Duration.ofHours(3));
        assertThat(gateway.verify(oldToken, "evt-1", 1).tokenId()).isEqualTo("old");

        // 1. publish next: the old key still signs
        clock.advance(Duration.ofMinutes(1));
        coordinator.updateAndGet(KeyRing::publishNext);
        assertThat(coordinator.get().activeKeyId()).isEqualTo(oldKid);

        // 2. activate: new tokens verify at once (unknown kid triggers a refresh), old ones still do
        clock.advance(Duration.ofMinutes(1));
        coordinator.updateAndGet(KeyRing::activateNext);
        String newToken = issue("new", TOKEN_LIFETIME);
        assertThat(AdmissionTokenIssuer.of(coordinator.get()).keyId()).isNotEqualTo(oldKid);
        assertThat(gateway.verify(newToken, "evt-1", 1).tokenId()).isEqualTo("new");
        AdmissionTokenVerifier freshGateway =
                AdmissionTokenVerifier.of(() -> coordinator.get().publicJwksJson(), clock);
        assertThat(freshGateway.verify(oldToken, "evt-1", 1).tokenId()).isEqualTo("old");
        assertThat(freshGateway.verify(newToken, "evt-1", 1).tokenId()).isEqualTo("new");

        // 3. after the longest lifetime plus skew, the old key is removed
        clock.advance(TOKEN_LIFETIME.plus(SKEW));
        assertRejected(() -> gateway.verify(oldToken, "evt-1", 1), RejectionReason.EXPIRED);
        clock.advance(Duration.ofSeconds(1)); // retireOlderThan removes keys retired strictly before the cutoff
        coordinator.updateAndGet(ring -> ring.retireOlderThan(clock.instant().minus(TOKEN_LIFETIME.plus(SKEW))));
        assertThat(coordinator.get().keys()).extracting(SigningKeyInfo::keyId).doesNotContain(oldKid);
        assertThat(coordinator.get().publicJwksJson()).doesNotContain(oldKid);

        // verifiers that learn the new JWKS drop the old key: even an unexpired old-key token fails
        AdmissionTokenVerifier laterGateway =
                AdmissionTokenVerifier.of(() -> coordinator.get().publicJwksJson(), clock);
        assertRejected(() -> laterGateway.verify(overlong, "evt-1", 1), RejectionReason.UNKNOWN_KEY);
        assertThat(laterGateway
                        .verify(issue("current", TOKEN_LIFETIME), "evt-1", 1)
                        .tokenId())
                .isEqualTo("current");
        clock.advance(Duration.ofMinutes(5)); // the long-running gateway's key copy ages out
        String later = issue("later", TOKEN_LIFETIME);
        assertThat(gateway.verify(later, "evt-1", 1).tokenId()).isEqualTo("later");
        assertRejected(() -> gateway.verify(overlong, "evt-1", 1), RejectionReason.UNKNOWN_KEY);
    }

    @Test
    void theRingSurvivesACoordinatorRestartMidRotation() {
        String oldToken = issue("old", TOKEN_LIFETIME);
        coordinator.updateAndGet(KeyRing::publishNext);

        KeyRing restarted = KeyRing.fromJson(coordinator.get().toJson(), clock).activateNext();
        coordinator.set(restarted);
        clock.advance(Duration.ofSeconds(5));

        assertThat(gateway.verify(issue("new", TOKEN_LIFETIME), "evt-1", 1).tokenId())
                .isEqualTo("new");
        assertThat(gateway.verify(oldToken, "evt-1", 1).tokenId()).isEqualTo("old");
    }
}
