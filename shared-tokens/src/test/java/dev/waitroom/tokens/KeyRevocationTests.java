package dev.waitroom.tokens;

import static dev.waitroom.tokens.AdmissionTokenVerifierTests.assertRejected;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.nimbusds.jose.jwk.JWKSet;
import java.io.IOException;
import java.text.ParseException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Emergency revocation: the ring unpublishes a key at once and replaces it when it was signing; a verifier that
 * cached tokens of that key refuses them as soon as its copy of the JWKS is refreshed (at most the key refresh
 * interval later), and drops them from its cache.
 */
class KeyRevocationTests {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");
    private static final Duration LIFETIME = Duration.ofMinutes(15);

    private final MutableClock clock = new MutableClock(START);
    private final AtomicReference<KeyRing> coordinator = new AtomicReference<>(KeyRing.generate(clock));
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicReference<IOException> sourceFailure = new AtomicReference<>();
    private final AdmissionTokenVerifier gateway = AdmissionTokenVerifier.of(
            () -> {
                fetches.incrementAndGet();
                IOException failure = sourceFailure.get();
                if (failure != null) {
                    throw failure;
                }
                return coordinator.get().publicJwksJson();
            },
            clock);

    private String issue(String tokenId) {
        Instant now = clock.instant();
        return AdmissionTokenIssuer.of(coordinator.get())
                .issue(new AdmissionClaims(
                        "evt-1", 1, "grant", "session", "visitor", now, now.plus(LIFETIME), tokenId));
    }

    @Test
    void revokingTheActiveKeyWithoutNextActivatesAFreshKeyAtOnceAndKeepsNoKeyMaterial() throws Exception {
        KeyRing ring = coordinator.get();
        String revokedKid = ring.activeKeyId();
        clock.advance(Duration.ofSeconds(10));

        KeyRing revoked = ring.revoke(revokedKid);

        assertThat(revoked.activeKeyId()).isNotEqualTo(revokedKid);
        assertThat(kids(revoked.publicJwksJson())).containsExactly(revoked.activeKeyId());
        assertThat(revoked.keys())
                .extracting(SigningKeyInfo::keyId, SigningKeyInfo::state, SigningKeyInfo::revoked)
                .containsExactly(
                        tuple(revokedKid, KeyState.REVOKED, START.plusSeconds(10)),
                        tuple(revoked.activeKeyId(), KeyState.ACTIVE, null));
        assertThat(revoked.key(revokedKid)).map(SigningKeyInfo::activated).contains(START);
        String json = revoked.toJson();
        assertThat(json).contains(revokedKid).containsOnlyOnce("\"jwk\"");
        KeyRing restored = KeyRing.fromJson(json, clock);
        assertThat(restored.keys()).isEqualTo(revoked.keys());
        assertThat(restored.publicJwksJson()).isEqualTo(revoked.publicJwksJson());
        assertThat(revoked.revoke(revokedKid))
                .as("revoking again changes nothing")
                .isSameAs(revoked);
    }

    @Test
    void revokingTheActiveKeyPromotesAPublishedNextKeyAndRevokingOthersKeepsTheSigner() {
        KeyRing ring = coordinator.get();
        String first = ring.activeKeyId();
        KeyRing withNext = ring.publishNext();
        String next = withNext.keys().get(1).keyId();

        KeyRing revoked = withNext.revoke(first);

        assertThat(revoked.activeKeyId()).isEqualTo(next);
        assertThat(revoked.keys()).hasSize(2);

        KeyRing rotated = coordinator.get().publishNext().activateNext().publishNext();
        String retired = rotated.keys().get(0).keyId();
        String pending = rotated.keys().get(2).keyId();
        KeyRing withoutRetired = rotated.revoke(retired);
        assertThat(withoutRetired.activeKeyId()).isEqualTo(rotated.activeKeyId());
        KeyRing withoutPending = withoutRetired.revoke(pending);
        assertThat(withoutPending.activeKeyId()).isEqualTo(rotated.activeKeyId());
        assertThat(withoutPending.keys())
                .extracting(SigningKeyInfo::state)
                .containsExactly(KeyState.REVOKED, KeyState.ACTIVE, KeyState.REVOKED);
        assertThatThrownBy(withoutPending::activateNext)
                .as("a revoked NEXT key never signs")
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> rotated.revoke("ed-nosuchkey"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("no signing key with that id");
    }

    @Test
    void revocationRecordsAreForgottenLikeRetiredKeys() {
        KeyRing ring = coordinator.get().publishNext().activateNext();
        String first = ring.keys().get(0).keyId();
        clock.advance(Duration.ofMinutes(1));
        KeyRing revoked = ring.publishNext().revoke(first);
        String revokedNext = revoked.keys().get(2).keyId();
        revoked = revoked.revoke(revokedNext);

        assertThat(revoked.removeRetired(info -> false)).isSameAs(revoked);
        KeyRing cleaned = revoked.removeRetired(info -> info.keyId().equals(revokedNext));
        assertThat(cleaned.keys())
                .extracting(SigningKeyInfo::keyId)
                .doesNotContain(revokedNext)
                .contains(first);
        clock.advance(Duration.ofMinutes(1));
        assertThat(cleaned.retireOlderThan(clock.instant()).keys())
                .singleElement()
                .satisfies(info -> assertThat(info.state()).isEqualTo(KeyState.ACTIVE));
    }

    @Test
    void aCachedTokenOfARevokedKeyIsRefusedOnceTheVerifierRefreshesWithinTheKeyRefreshInterval() {
        String revokedKid = coordinator.get().activeKeyId();
        String token = issue("old");
        assertThat(gateway.verify(token, "evt-1", 1).tokenId()).isEqualTo("old");
        assertThat(gateway.cachedTokens()).isEqualTo(1);
        int fetchesBefore = fetches.get();

        coordinator.updateAndGet(ring -> ring.revoke(revokedKid));
        assertThat(coordinator.get().publicJwksJson()).doesNotContain(revokedKid);
        clock.advance(Duration.ofSeconds(1));
        assertThat(gateway.verify(token, "evt-1", 1).tokenId())
                .as("inside the refresh interval the copy of the JWKS still has the key")
                .isEqualTo("old");
        assertThat(fetches.get()).isEqualTo(fetchesBefore);

        clock.advance(AdmissionTokenVerifier.DEFAULT_KEY_REFRESH);
        assertRejected(() -> gateway.verify(token, "evt-1", 1), RejectionReason.UNKNOWN_KEY);
        assertRejected(
                () -> gateway.verifyAllowingExpired(token, "evt-1", Duration.ofHours(1)), RejectionReason.UNKNOWN_KEY);
        assertThat(gateway.cachedTokens())
                .as("the revoked key's entries are dropped")
                .isZero();
        assertThat(fetches.get()).isEqualTo(fetchesBefore + 1);

        assertThat(gateway.verify(issue("fresh"), "evt-1", 1).tokenId())
                .as("tokens of the key that replaced it verify")
                .isEqualTo("fresh");
    }

    @Test
    void aRefreshThatDropsAKeyEmptiesItsEntriesFromTheCacheAndKeepsTheOthers() {
        KeyRing ring = coordinator.updateAndGet(KeyRing::publishNext);
        String oldKid = ring.activeKeyId();
        List<String> oldTokens = List.of(issue("a"), issue("b"), issue("c"));
        coordinator.updateAndGet(KeyRing::activateNext);
        String newToken = issue("new");
        oldTokens.forEach(token -> gateway.verify(token, "evt-1", 1));
        gateway.verify(newToken, "evt-1", 1);
        assertThat(gateway.cachedTokens()).isEqualTo(4);

        coordinator.updateAndGet(r -> r.revoke(oldKid));
        clock.advance(AdmissionTokenVerifier.DEFAULT_KEY_REFRESH);
        assertThat(gateway.verify(newToken, "evt-1", 1).tokenId()).isEqualTo("new");

        assertThat(gateway.cachedTokens()).isEqualTo(1);
        oldTokens.forEach(
                token -> assertRejected(() -> gateway.verify(token, "evt-1", 1), RejectionReason.UNKNOWN_KEY));
    }

    @Test
    void whileTheSourceFailsTheLastGoodKeysStayAndTheSourceIsAskedAtMostEveryFiveSeconds() {
        String token = issue("kept");
        gateway.verify(token, "evt-1", 1);
        sourceFailure.set(new IOException("coordinator down"));
        int before = fetches.get();

        clock.advance(AdmissionTokenVerifier.DEFAULT_KEY_REFRESH);
        for (int second = 0; second < 20; second++) {
            assertThat(gateway.verify(token, "evt-1", 1).tokenId()).isEqualTo("kept");
            clock.advance(Duration.ofSeconds(1));
        }
        assertThat(fetches.get() - before)
                .as("20 s of verifications against a failing source: one attempt per 5 s")
                .isEqualTo(4);

        sourceFailure.set(null);
        coordinator.updateAndGet(r -> r.revoke(r.activeKeyId()));
        clock.advance(AdmissionTokenVerifier.DEFAULT_KEY_REFRESH);
        assertRejected(() -> gateway.verify(token, "evt-1", 1), RejectionReason.UNKNOWN_KEY);
    }

    @Test
    void anUnknownKidRefreshesAtOnceButAtMostOncePerSecond() {
        gateway.verify(issue("first"), "evt-1", 1);
        int before = fetches.get();
        coordinator.updateAndGet(r -> r.revoke(r.activeKeyId()));
        String signedWithTheReplacement = issue("second");

        assertRejected(() -> gateway.verify(signedWithTheReplacement, "evt-1", 1), RejectionReason.UNKNOWN_KEY);
        assertThat(fetches.get()).as("within a second of the last fetch").isEqualTo(before);
        clock.advance(Duration.ofSeconds(1));
        assertThat(gateway.verify(signedWithTheReplacement, "evt-1", 1).tokenId())
                .isEqualTo("second");
        assertThat(fetches.get()).isEqualTo(before + 1);
    }

    @Test
    void keyRefreshIsBounded() {
        assertThatThrownBy(() -> AdmissionTokenVerifier.of(
                        () -> "{}", clock, AdmissionTokenVerifier.DEFAULT_SKEW, 10, Duration.ofMillis(500)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdmissionTokenVerifier.of(
                        () -> "{}", clock, AdmissionTokenVerifier.DEFAULT_SKEW, 10, Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> kids(String jwks) throws ParseException {
        return JWKSet.parse(jwks).getKeys().stream().map(k -> k.getKeyID()).toList();
    }
}
