package dev.waitroom.tokens;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.nimbusds.jose.jwk.OctetKeyPair;
import com.sun.net.httpserver.HttpServer;
import dev.waitroom.tokens.internal.Ed25519Keys;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class AdmissionTokenVerifierTests {

    private static final Instant START = Instant.parse("2026-03-01T10:00:00Z");

    private final MutableClock clock = new MutableClock(START);
    private final KeyRing ring = KeyRing.generate(clock);
    private final AdmissionTokenIssuer issuer = AdmissionTokenIssuer.of(ring);
    private final AtomicReference<String> published = new AtomicReference<>(ring.publicJwksJson());
    private final AtomicInteger fetches = new AtomicInteger();
    private final AtomicReference<IOException> sourceFailure = new AtomicReference<>();
    private final AdmissionTokenVerifier verifier = AdmissionTokenVerifier.of(
            () -> {
                fetches.incrementAndGet();
                IOException failure = sourceFailure.get();
                if (failure != null) {
                    throw failure;
                }
                return published.get();
            },
            clock);

    private AdmissionClaims claims(String eventId, long generation, Duration lifetime) {
        Instant now = clock.instant();
        return new AdmissionClaims(
                eventId,
                generation,
                "grant-1",
                "session-1",
                VisitorId.random().value(),
                now,
                now.plus(lifetime),
                "jti-" + System.nanoTime());
    }

    @Test
    void verifiesAnIssuedTokenAndReturnsItsClaimsAtSecondPrecision() {
        clock.set(START.plusMillis(750));
        AdmissionClaims issued = claims("evt-1", 4, Duration.ofMinutes(10));

        AdmissionClaims verified = verifier.verify(issuer.issue(issued), "evt-1", 4);

        assertThat(verified)
                .usingRecursiveComparison()
                .ignoringFields("issuedAt", "expiresAt")
                .isEqualTo(issued);
        assertThat(verified.issuedAt()).isEqualTo(START);
        assertThat(verified.expiresAt()).isEqualTo(START.plus(Duration.ofMinutes(10)));
    }

    @Test
    void acceptsANewerGenerationThanTheCallerKnows() {
        String token = issuer.issue(claims("evt-1", 5, Duration.ofMinutes(10)));

        assertThat(verifier.verify(token, "evt-1", 4).saleGeneration()).isEqualTo(5);
    }

    @Test
    void secondVerificationIsServedFromTheCacheButStillChecksEventAndGeneration() {
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));
        AdmissionClaims first = verifier.verify(token, "evt-1", 4);
        assertThat(verifier.cachedTokens()).isEqualTo(1);

        // the key disappears from the source: only the cache can answer now
        published.set(KeyRing.generate(clock).publicJwksJson());
        assertThat(verifier.verify(token, "evt-1", 4)).isSameAs(first);
        assertRejected(() -> verifier.verify(token, "evt-2", 4), RejectionReason.WRONG_EVENT);
        assertRejected(() -> verifier.verify(token, "evt-1", 5), RejectionReason.OLD_GENERATION);
    }

    @Test
    void cachedEntryDiesWithTheTokenAtExpiryPlusSkew() {
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));
        verifier.verify(token, "evt-1", 4);

        clock.advance(Duration.ofMinutes(10).plusSeconds(29));
        assertThat(verifier.verify(token, "evt-1", 4)).isNotNull();
        clock.advance(Duration.ofSeconds(1));
        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.EXPIRED);
        assertThat(verifier.cachedTokens()).isZero();
    }

    @Test
    void neverCachesARejection() {
        String tooEarly = JwtForge.valid(ring.activeKeyId(), START.plusSeconds(60))
                .claim("evt", "evt-1")
                .signedWith(ring.activeKey());
        String otherEvent = issuer.issue(claims("evt-2", 4, Duration.ofMinutes(10)));
        String oldGeneration = issuer.issue(claims("evt-1", 3, Duration.ofMinutes(10)));

        assertRejected(() -> verifier.verify(tooEarly, "evt-1", 3), RejectionReason.NOT_YET_VALID);
        assertRejected(() -> verifier.verify(otherEvent, "evt-1", 4), RejectionReason.WRONG_EVENT);
        assertRejected(() -> verifier.verify(oldGeneration, "evt-1", 4), RejectionReason.OLD_GENERATION);
        assertThat(verifier.cachedTokens()).isZero();

        // the same strings are judged afresh: valid now, so accepted (and only now cached)
        clock.advance(Duration.ofSeconds(60));
        assertThat(verifier.verify(tooEarly, "evt-1", 3).eventId()).isEqualTo("evt-1");
        assertThat(verifier.verify(otherEvent, "evt-2", 4).eventId()).isEqualTo("evt-2");
        assertThat(verifier.cachedTokens()).isEqualTo(2);
    }

    @Test
    void cacheStaysWithinItsBound() {
        AdmissionTokenVerifier small =
                AdmissionTokenVerifier.of(ring::publicJwksJson, clock, AdmissionTokenVerifier.DEFAULT_SKEW, 10);

        for (int i = 0; i < 50; i++) {
            String token = issuer.issue(claims("evt-1", 1, Duration.ofMinutes(10)));
            assertThat(small.verify(token, "evt-1", 1)).isNotNull();
            assertThat(small.cachedTokens()).isLessThanOrEqualTo(10);
        }
    }

    @Test
    void toleratesClockSkewOnBothEnds() {
        Instant issuedAhead = START.plusSeconds(30);
        String fromAFastClock = JwtForge.valid(ring.activeKeyId(), issuedAhead).signedWith(ring.activeKey());
        assertThat(verifier.verify(fromAFastClock, "evt-1", 3)).isNotNull();

        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(1)));
        clock.advance(Duration.ofMinutes(1).plusSeconds(29));
        AdmissionTokenVerifier uncached = AdmissionTokenVerifier.of(ring::publicJwksJson, clock);
        assertThat(uncached.verify(token, "evt-1", 4)).isNotNull();
    }

    @Test
    void allowsAnExpiredTokenForOrderStatusWithinTheGivenWindowOnly() {
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));
        clock.advance(Duration.ofMinutes(40));

        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.EXPIRED);
        assertThat(verifier.verifyAllowingExpired(token, "evt-1", Duration.ofHours(1))
                        .sessionId())
                .isEqualTo("session-1");
        assertRejected(
                () -> verifier.verifyAllowingExpired(token, "evt-2", Duration.ofHours(1)), RejectionReason.WRONG_EVENT);
        assertRejected(
                () -> verifier.verifyAllowingExpired(token, "evt-1", Duration.ofMinutes(20)), RejectionReason.EXPIRED);
        assertThat(verifier.cachedTokens()).as("expired tokens are not cached").isZero();
    }

    @Test
    void verifyAllowingExpiredStillRejectsForgeries() {
        String forged =
                JwtForge.valid(ring.activeKeyId(), START).header("alg", "none").unsigned();
        String tampered = JwtForge.valid(ring.activeKeyId(), START).signedWith(Ed25519Keys.generate());

        assertRejected(
                () -> verifier.verifyAllowingExpired(forged, "evt-1", Duration.ofHours(1)),
                RejectionReason.UNSUPPORTED_ALGORITHM);
        assertRejected(
                () -> verifier.verifyAllowingExpired(tampered, "evt-1", Duration.ofHours(1)),
                RejectionReason.BAD_SIGNATURE);
        assertRejected(
                () -> verifier.verifyAllowingExpired("x".repeat(9000), "evt-1", Duration.ofHours(1)),
                RejectionReason.TOO_LARGE);
    }

    @Test
    void fetchesTheJwksOnceAndRefreshesOnUnknownKidAtMostOncePerSecond() {
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));
        verifier.verify(token, "evt-1", 4);
        assertThat(fetches).hasValue(1);

        OctetKeyPair stranger = Ed25519Keys.generate();
        for (int i = 0; i < 20; i++) {
            String unknown =
                    JwtForge.valid(stranger.getKeyID(), clock.instant()).signedWith(stranger);
            assertRejected(() -> verifier.verify(unknown, "evt-1", 3), RejectionReason.UNKNOWN_KEY);
        }
        assertThat(fetches)
                .as("the first unknown kid right after the first fetch is inside the 1 s window")
                .hasValue(1);

        clock.advance(Duration.ofSeconds(1));
        for (int i = 0; i < 20; i++) {
            String unknown =
                    JwtForge.valid(stranger.getKeyID(), clock.instant()).signedWith(stranger);
            assertRejected(() -> verifier.verify(unknown, "evt-1", 3), RejectionReason.UNKNOWN_KEY);
        }
        assertThat(fetches).hasValue(2);
    }

    @Test
    void keepsTheLastGoodKeysWhileTheSourceFailsAndRecoversAfterwards() {
        String before = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(30)));
        AdmissionTokenVerifier uncached = AdmissionTokenVerifier.of(
                () -> {
                    fetches.incrementAndGet();
                    IOException failure = sourceFailure.get();
                    if (failure != null) {
                        throw failure;
                    }
                    return published.get();
                },
                clock,
                AdmissionTokenVerifier.DEFAULT_SKEW,
                1);
        uncached.verify(before, "evt-1", 4);

        sourceFailure.set(new IOException("coordinator down"));
        clock.advance(Duration.ofMinutes(6)); // keys are now old enough to be refreshed
        String other = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));
        assertThat(uncached.verify(other, "evt-1", 4))
                .as("last good keys still verify")
                .isNotNull();
        assertThat(uncached.verify(before, "evt-1", 4)).isNotNull();

        published.set("{\"keys\":[]}");
        sourceFailure.set(null);
        clock.advance(Duration.ofSeconds(5));
        assertThat(uncached.verify(issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10))), "evt-1", 4))
                .as("an empty JWKS does not wipe the keys")
                .isNotNull();
    }

    @Test
    void aSourceThatIsDownAtStartRejectsWithUnknownKeyUntilItComesBack() {
        sourceFailure.set(new IOException("connection refused"));
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));

        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.UNKNOWN_KEY);
        sourceFailure.set(null);
        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.UNKNOWN_KEY);
        clock.advance(Duration.ofSeconds(5));
        assertThat(verifier.verify(token, "evt-1", 4)).isNotNull();
        assertThat(fetches).hasValue(2);
    }

    /**
     * A fetch cut short by the caller's interruption (the gateway's request was cancelled while its thread read the
     * JWKS) is no failure of the source: the next token is checked against a fresh read at once, not refused for the
     * five seconds of the failure back-off.
     */
    @Test
    void anInterruptedFetchDoesNotHoldTheNextVerificationBack() {
        sourceFailure.set(new InterruptedIOException("interrupted while fetching the JWKS"));
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));

        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.UNKNOWN_KEY);
        assertThat(Thread.interrupted())
                .as("the interruption is kept for the caller")
                .isTrue();
        sourceFailure.set(null);
        assertThat(verifier.verify(token, "evt-1", 4)).isNotNull();
        assertThat(fetches).hasValue(2);
    }

    @Test
    void ignoresJwksEntriesThatAreNotEd25519SigningKeys() {
        published.set("{\"keys\":[{\"kty\":\"oct\",\"kid\":\"" + ring.activeKeyId() + "\",\"k\":\"c2VjcmV0\"},"
                + "{\"kty\":\"OKP\",\"crv\":\"Ed25519\",\"kid\":\"../x\",\"x\":\""
                + ring.activeKey().getX() + "\"}]}");
        String token = issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10)));

        assertRejected(() -> verifier.verify(token, "evt-1", 4), RejectionReason.UNKNOWN_KEY);
    }

    @Test
    void neverFetchesAJkuOrX5uUrl() throws IOException {
        AtomicInteger hits = new AtomicInteger();
        OctetKeyPair attacker = Ed25519Keys.generate();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            hits.incrementAndGet();
            byte[] body =
                    ("{\"keys\":[" + attacker.toPublicJWK().toJSONString() + "]}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/jwks.json";
            String viaJku = JwtForge.valid(attacker.getKeyID(), START)
                    .header("jku", url)
                    .signedWith(attacker);
            String viaX5u = JwtForge.valid(attacker.getKeyID(), START)
                    .header("x5u", url)
                    .signedWith(attacker);

            assertRejected(() -> verifier.verify(viaJku, "evt-1", 3), RejectionReason.FORBIDDEN_HEADER);
            assertRejected(() -> verifier.verify(viaX5u, "evt-1", 3), RejectionReason.FORBIDDEN_HEADER);
            assertThat(hits).hasValue(0);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void concurrentVerificationsAgreeAndFetchTheKeysOnce() throws Exception {
        AdmissionTokenVerifier shared = AdmissionTokenVerifier.of(
                () -> {
                    fetches.incrementAndGet();
                    return published.get();
                },
                clock,
                AdmissionTokenVerifier.DEFAULT_SKEW,
                64);
        java.util.List<String> good = new java.util.ArrayList<>();
        for (int i = 0; i < 100; i++) {
            good.add(issuer.issue(claims("evt-1", 4, Duration.ofMinutes(10))));
        }
        String forged = JwtForge.valid(ring.activeKeyId(), START).signedWith(Ed25519Keys.generate());
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            java.util.List<java.util.concurrent.Future<Integer>> results = new java.util.ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    int accepted = 0;
                    for (int i = 0; i < 400; i++) {
                        accepted += shared.verify(good.get((i * 7 + offset) % good.size()), "evt-1", 4) != null ? 1 : 0;
                        try {
                            shared.verify(forged, "evt-1", 3);
                            throw new AssertionError("forgery accepted");
                        } catch (TokenRejectedException expected) {
                            assertThat(expected.reason()).isEqualTo(RejectionReason.BAD_SIGNATURE);
                        }
                    }
                    return accepted;
                }));
            }
            for (java.util.concurrent.Future<Integer> result : results) {
                assertThat(result.get(30, java.util.concurrent.TimeUnit.SECONDS))
                        .isEqualTo(400);
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(fetches).hasValue(1);
        assertThat(shared.cachedTokens()).isLessThanOrEqualTo(64 + 4);
    }

    @Test
    void rejectsConfigurationOutsideSaneBounds() {
        assertThatThrownBy(() -> AdmissionTokenVerifier.of(ring::publicJwksJson, clock, Duration.ofSeconds(-1), 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdmissionTokenVerifier.of(ring::publicJwksJson, clock, Duration.ofHours(1), 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdmissionTokenVerifier.of(ring::publicJwksJson, clock, Duration.ZERO, 0))
                .isInstanceOf(IllegalArgumentException.class);
    }

    static void assertRejected(ThrowingCallable call, RejectionReason reason) {
        assertThatThrownBy(call)
                .isInstanceOf(TokenRejectedException.class)
                .extracting(e -> ((TokenRejectedException) e).reason())
                .isEqualTo(reason);
    }
}
