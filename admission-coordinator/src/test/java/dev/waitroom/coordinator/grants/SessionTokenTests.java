package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * A stolen visitor cookie is worth little (docs/design/architecture.md#identity): renew and leave need the session's current
 * admission token, and a repeated claim is given the session again only with the browser's claim key (within the
 * claim's window) or that token, never with the visitor id alone.
 */
@CoordinatorTest
class SessionTokenTests {

    @Autowired
    Scenario scenario;

    @Autowired
    RedissonClient redisson;

    Http http;

    String eventId;

    @BeforeEach
    void setUp() {
        this.http = this.scenario.http();
        this.eventId = Scenario.eventId("tokens");
    }

    @Test
    void aStolenVisitorIdAloneNeitherRenewsNorLeavesNorGetsAToken() {
        String visitor = offered(2, 1).get(0);
        Http.Response claimed = claim(visitor, Headers.IDEMPOTENCY_KEY, newKey());
        assertThat(claimed.status()).isEqualTo(200);
        String sessionId = claimed.json().path("sessionId").asString();

        // the attacker holds a copy of the visitor cookie and nothing else: no token, not the page's claim key
        for (String call : List.of("renew", "leave")) {
            Http.Response r = session(call, visitor);
            assertThat(r.status()).as(call).isEqualTo(401);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.problemType()).endsWith("/admission-token-required");
            assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
            assertThat(r.header("Set-Cookie")).isNull();
            assertThat(r.body()).doesNotContain("\"token\"");
        }
        for (Http.Response r : List.of(claim(visitor), claim(visitor, Headers.IDEMPOTENCY_KEY, newKey()))) {
            assertThat(r.status()).as("a claim with the visitor id alone").isEqualTo(409);
            assertThat(r.problemType()).endsWith("/offer-claimed");
            assertThat(r.header("Set-Cookie")).isNull();
            assertThat(r.body()).doesNotContain("\"token\"");
        }
        assertThat(live(sessionId)).isTrue();
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).active())
                .isEqualTo(1);
    }

    @Test
    void aRepeatedClaimWithTheClaimKeyOrTheTokenReturnsTheSameSession() {
        String visitor = offered(2, 1).get(0);
        String key = newKey();
        Http.Response first = claim(visitor, Headers.IDEMPOTENCY_KEY, key);
        assertThat(first.status()).isEqualTo(200);
        String sessionId = first.json().path("sessionId").asString();
        String token = first.json().path("token").asString();

        // the answer was lost: the browser repeats the claim with what it had before, its visitor id and its key
        this.scenario.clock.advance(Duration.ofSeconds(2));
        Http.Response retry = claim(visitor, Headers.IDEMPOTENCY_KEY, key);
        assertThat(retry.status()).as(retry.body()).isEqualTo(200);
        assertThat(retry.json().path("sessionId").asString()).isEqualTo(sessionId);
        String fresh = retry.json().path("token").asString();
        assertThat(fresh).isNotEqualTo(token);
        assertThat(retry.header("Set-Cookie")).startsWith("wr_at=" + fresh).contains("Path=/events/" + this.eventId);
        assertThat(verifier().verify(fresh, this.eventId, 1).sessionId()).isEqualTo(sessionId);

        // past the offer's deadline and the retry grace the key no longer fetches a token; the session's token does
        this.scenario.clock.advance(Duration.ofSeconds(31).plus(Admissions.CLAIM_RETRY_GRACE));
        assertThat(claim(visitor, Headers.IDEMPOTENCY_KEY, key).status()).isEqualTo(409);
        for (String[] proof :
                List.of(new String[] {"Authorization", "Bearer " + fresh}, new String[] {"Cookie", "wr_at=" + fresh})) {
            Http.Response withToken = claim(visitor, proof);
            assertThat(withToken.status())
                    .as(proof[0] + ": " + withToken.body())
                    .isEqualTo(200);
            assertThat(withToken.json().path("sessionId").asString()).isEqualTo(sessionId);
        }
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).active())
                .isEqualTo(1);
    }

    @Test
    void renewAndLeaveWithTheCurrentTokenWorkByBearerOrCookie() throws Exception {
        String visitor = offered(2, 1).get(0);
        JsonNode session = claim(visitor).json();
        String sessionId = session.path("sessionId").asString();

        this.scenario.clock.advance(Duration.ofSeconds(30));
        Http.Response renewed = session(
                "renew",
                visitor,
                "Authorization",
                "Bearer " + session.path("token").asString());
        assertThat(renewed.status()).as(renewed.body()).isEqualTo(200);
        assertThat(renewed.json().path("sessionId").asString()).isEqualTo(sessionId);
        String fresh = renewed.json().path("token").asString();
        AdmissionClaims claims = verifier().verify(fresh, this.eventId, 1);
        assertThat(claims.visitor()).isEqualTo(visitor);
        assertThat(claims.sessionId()).isEqualTo(sessionId);
        assertThat(renewed.header("Set-Cookie")).startsWith("wr_at=" + fresh);

        Http.Response left = session("leave", visitor, "Cookie", "wr_at=" + fresh);
        assertThat(left.status()).as(left.body()).isEqualTo(200);
        assertThat(left.header("Set-Cookie"))
                .contains("wr_at=")
                .contains("Max-Age=0")
                .contains("Path=/events/" + this.eventId);
        assertThat(live(sessionId)).isFalse();
        assertThat(this.scenario.grants.releasedByReason(EventId.of(this.eventId)))
                .containsEntry("LEFT", 1L);
    }

    @Test
    void anotherSessionsForgedTamperedOrOtherEventsTokenIsRefused() {
        List<String> waiting = offered(3, 2);
        String alice = waiting.get(0);
        String bob = waiting.get(1);
        JsonNode aliceSession = claim(alice).json();
        JsonNode bobSession = claim(bob).json();
        String aliceToken = aliceSession.path("token").asString();
        String bobToken = bobSession.path("token").asString();
        AdmissionClaims bobClaims = verifier().verify(bobToken, this.eventId, 1);

        // Bob's own session in another event: its token names his id, but not this event
        String otherEvent = Scenario.eventId("tokens-other");
        this.scenario.openEvent(otherEvent, config(2));
        this.scenario.queue.join(otherEvent, bob);
        this.scenario.tickUntilLive(otherEvent, 1);
        String otherToken = claimIn(otherEvent, bob).json().path("token").asString();

        String forged = AdmissionTokenIssuer.of(KeyRing.generate(this.scenario.clock))
                .issue(new AdmissionClaims(
                        this.eventId,
                        1,
                        bobClaims.grantId(),
                        bobClaims.sessionId(),
                        bob,
                        this.scenario.now(),
                        this.scenario.now().plusSeconds(60),
                        UUID.randomUUID().toString()));
        char last = bobToken.charAt(bobToken.length() - 2);
        String tampered = bobToken.substring(0, bobToken.length() - 2)
                + (last == 'A' ? 'B' : 'A')
                + bobToken.charAt(bobToken.length() - 1);

        for (String call : List.of("renew", "leave")) {
            for (String token : List.of(aliceToken, forged, tampered, otherToken, "not-a-token")) {
                Http.Response r = session(call, bob, "Authorization", "Bearer " + token);
                assertThat(r.status()).as(call).isEqualTo(401);
                assertThat(r.problemType()).as(call).endsWith("/admission-token-invalid");
                assertThat(r.body()).doesNotContain("\"token\"");
            }
            // Alice's own token does not act for Bob's id either way round
            assertThat(session(call, alice, "Authorization", "Bearer " + bobToken)
                            .status())
                    .isEqualTo(401);
        }
        // nor does any of them fetch Bob's session again by a claim
        for (String token : List.of(aliceToken, forged, tampered, otherToken)) {
            assertThat(claim(bob, "Authorization", "Bearer " + token).status()).isEqualTo(409);
        }
        assertThat(live(aliceSession.path("sessionId").asString())).isTrue();
        assertThat(live(bobSession.path("sessionId").asString())).isTrue();
    }

    @Test
    void theTokenOfAnEndedSessionNeitherRenewsNorClaimsAgain() {
        List<String> waiting = offered(3, 2);
        String visitor = waiting.get(0);
        JsonNode earlier = claim(visitor, Headers.IDEMPOTENCY_KEY, newKey()).json();
        String earlierToken = earlier.path("token").asString();
        JsonNode other = claim(waiting.get(1)).json();
        assertThat(session("leave", visitor, "Authorization", "Bearer " + earlierToken)
                        .status())
                .isEqualTo(200);

        Http.Response renewEnded = session("renew", visitor, "Authorization", "Bearer " + earlierToken);
        assertThat(renewEnded.status()).isEqualTo(401);
        assertThat(renewEnded.problemType()).endsWith("/admission-session-ended");
        Http.Response claimEnded = claim(visitor, "Authorization", "Bearer " + earlierToken);
        assertThat(claimEnded.status()).isEqualTo(409);
        assertThat(claimEnded.body()).doesNotContain("\"token\"");
        // leaving the ended session again is harmless and touches nothing else
        assertThat(session("leave", visitor, "Authorization", "Bearer " + earlierToken)
                        .status())
                .isEqualTo(200);
        assertThat(live(other.path("sessionId").asString())).isTrue();
    }

    @Test
    void concurrentClaimsWithOneClaimKeyConvergeOnOneSessionAndDifferentKeysAdmitOne() throws Exception {
        List<String> waiting = offered(3, 2);
        String key = newKey();
        List<String> sameKey = claimConcurrently(waiting.get(0), 50, () -> key);
        assertThat(sameKey)
                .as("every claim with the key is answered the session")
                .hasSize(50);
        assertThat(Set.copyOf(sameKey)).hasSize(1);

        // with other keys only the activating claim, and any that came while its session was not yet live (nobody
        // held a token for it then), get the session: still one session
        List<String> otherKeys = claimConcurrently(waiting.get(1), 50, SessionTokenTests::newKey);
        assertThat(otherKeys).isNotEmpty();
        assertThat(Set.copyOf(otherKeys)).hasSize(1);
        assertThat(claim(waiting.get(1), Headers.IDEMPOTENCY_KEY, newKey()).status())
                .as("once the session is live, another key proves nothing")
                .isEqualTo(409);
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).active())
                .isEqualTo(2);
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).offered())
                .isZero();
    }

    @Test
    void aPlaceClaimedForAnotherBrowserOfTheAccountIsThatBrowsersSession() {
        String laptop = offered(2, 1).get(0);
        String phone = VisitorId.random().value();
        String key = newKey();
        // the gateway claims the account's place, offered to the laptop's id, for the phone
        // (docs/integration/accounts.md)
        Http.Response claimed = claim(laptop, Headers.CLAIMING_VISITOR, phone, Headers.IDEMPOTENCY_KEY, key);
        assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
        String sessionId = claimed.json().path("sessionId").asString();
        assertThat(verifier()
                        .verify(claimed.json().path("token").asString(), this.eventId, 1)
                        .visitor())
                .isEqualTo(phone);

        // the phone repeats under its own id (the place is ACTIVE now); the laptop sees the place taken
        Http.Response repeat = claim(phone, Headers.IDEMPOTENCY_KEY, key);
        assertThat(repeat.status()).as(repeat.body()).isEqualTo(200);
        assertThat(repeat.json().path("sessionId").asString()).isEqualTo(sessionId);
        Http.Response laptopClaim = claim(laptop, Headers.IDEMPOTENCY_KEY, newKey());
        assertThat(laptopClaim.status()).isEqualTo(409);
        assertThat(laptopClaim.problemType()).endsWith("/offer-claimed");

        Http.Response malformed = claim(laptop, Headers.CLAIMING_VISITOR, "not a visitor id");
        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.problemType()).endsWith("/invalid-visitor");
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).active())
                .isEqualTo(1);
    }

    @Test
    void aSessionNeverMadeLiveGoesToTheVisitorOnItsNextClaim() {
        String visitor = offered(2, 1).get(0);
        String sessionId = claim(visitor).json().path("sessionId").asString();
        // as after an activating claim that committed and then found the registry down (503, no token anywhere)
        this.redisson
                .getBucket(RedisKeys.session(EventId.of(this.eventId), sessionId), StringCodec.INSTANCE)
                .delete();

        Http.Response retry = claim(visitor);
        assertThat(retry.status()).as(retry.body()).isEqualTo(200);
        assertThat(retry.json().path("sessionId").asString()).isEqualTo(sessionId);
        assertThat(live(sessionId)).isTrue();
        assertThat(claim(visitor).status())
                .as("once live, the visitor id alone proves nothing again")
                .isEqualTo(409);
    }

    @Test
    void aMalformedClaimKeyIsAProblemThatChangesNothing() {
        String visitor = offered(2, 1).get(0);
        for (String bad : List.of("short", "x".repeat(129), "has spaces in it, sixteen+")) {
            Http.Response r = claim(visitor, Headers.IDEMPOTENCY_KEY, bad);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.problemType()).endsWith("/malformed-request");
        }
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).offered())
                .isEqualTo(1);
    }

    /** The session id of each 200 answer to {@code claims} concurrent claims of one visitor, each with its key. */
    private List<String> claimConcurrently(String visitor, int claims, java.util.function.Supplier<String> keys)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch start = new CountDownLatch(1);
        List<String> sessions = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < claims; i++) {
            String key = keys.get();
            statuses.add(pool.submit(() -> {
                start.await();
                Http.Response r = claim(visitor, Headers.IDEMPOTENCY_KEY, key);
                if (r.status() == 200) {
                    sessions.add(r.json().path("sessionId").asString());
                }
                return r.status();
            }));
        }
        start.countDown();
        for (Future<Integer> status : statuses) {
            assertThat(status.get()).isIn(200, 409);
        }
        pool.shutdown();
        return sessions;
    }

    private List<String> offered(int ceiling, int visitors) {
        this.scenario.openEvent(this.eventId, config(ceiling));
        List<String> joined = this.scenario.join(this.eventId, visitors);
        this.scenario.tickUntilLive(this.eventId, Math.min(ceiling, visitors));
        return joined;
    }

    private static dev.waitroom.coordinator.event.EventConfig config(int ceiling) {
        return Scenario.config(
                ceiling, 1000, 100, 30, 120, 600, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE);
    }

    private Http.Response claim(String visitor, String... headers) {
        return claimIn(this.eventId, visitor, headers);
    }

    private Http.Response claimIn(String event, String visitor, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = Headers.VISITOR;
        all[1] = visitor;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return this.http.post("/events/" + event + "/admission/claim", null, all);
    }

    private static String newKey() {
        return UUID.randomUUID().toString();
    }

    private Http.Response session(String call, String visitor, String... headers) {
        String[] all = new String[headers.length + 2];
        all[0] = Headers.VISITOR;
        all[1] = visitor;
        System.arraycopy(headers, 0, all, 2, headers.length);
        return this.http.post("/events/" + this.eventId + "/shopping-session/" + call, null, all);
    }

    private boolean live(String sessionId) {
        return this.redisson
                .getBucket(RedisKeys.session(EventId.of(this.eventId), sessionId), StringCodec.INSTANCE)
                .isExists();
    }

    private AdmissionTokenVerifier verifier() {
        Http anonymous = new Http(this.scenario.port());
        return AdmissionTokenVerifier.of(
                () -> anonymous.get("/.well-known/jwks.json").body(), this.scenario.clock);
    }
}
