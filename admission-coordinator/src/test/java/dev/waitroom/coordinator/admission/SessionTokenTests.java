package dev.waitroom.coordinator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.InMemoryQueueDirectory;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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
 * A stolen cookie is worth little (docs/ARCHITECTURE.md#identity): renew and leave need the session's current
 * admission token, and the visitor id rotates at claim, so the id a visitor waited under cannot shop, renew or leave.
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
        String waiting = offered(2, 1).get(0);
        String shopping = VisitorId.random().value();
        Http.Response claimed = claim(waiting, shopping);
        String sessionId = claimed.json().path("sessionId").asString();

        // the attacker holds a copy of the victim's visitor cookie, from the queue or from the shop, and no token
        for (String stolen : List.of(waiting, shopping)) {
            for (String call : List.of("renew", "leave")) {
                Http.Response r = session(call, stolen);
                assertThat(r.status()).as(call + " with " + stolen).isEqualTo(401);
                assertThat(r.contentType()).startsWith("application/problem+json");
                assertThat(r.problemType()).endsWith("/admission-token-required");
                assertThat(r.header("WWW-Authenticate")).startsWith("Bearer");
                assertThat(r.header("Set-Cookie")).isNull();
                assertThat(r.body()).doesNotContain("\"token\"");
            }
        }
        assertThat(live(sessionId)).isTrue();
        assertThat(this.scenario.grants.count(this.eventId).active()).isEqualTo(1);
    }

    @Test
    void renewAndLeaveWithTheCurrentTokenWorkByBearerOrCookie() throws Exception {
        String waiting = offered(2, 1).get(0);
        String shopping = VisitorId.random().value();
        JsonNode session = claim(waiting, shopping).json();
        String sessionId = session.path("sessionId").asString();

        this.scenario.clock.advance(Duration.ofSeconds(30));
        Http.Response renewed = session(
                "renew",
                shopping,
                "Authorization",
                "Bearer " + session.path("token").asString());
        assertThat(renewed.status()).as(renewed.body()).isEqualTo(200);
        assertThat(renewed.json().path("sessionId").asString()).isEqualTo(sessionId);
        String fresh = renewed.json().path("token").asString();
        AdmissionClaims claims = verifier().verify(fresh, this.eventId, 1);
        assertThat(claims.visitor()).isEqualTo(shopping);
        assertThat(claims.sessionId()).isEqualTo(sessionId);
        assertThat(renewed.header("Set-Cookie")).startsWith("wr_at=" + fresh);

        Http.Response left = session("leave", shopping, "Cookie", "wr_at=" + fresh);
        assertThat(left.status()).as(left.body()).isEqualTo(200);
        assertThat(left.header("Set-Cookie")).contains("wr_at=").contains("Max-Age=0");
        assertThat(live(sessionId)).isFalse();
        assertThat(this.scenario.grants.releasedByReason(this.eventId)).containsEntry("LEFT", 1L);
    }

    @Test
    void anotherSessionsForgedTamperedOrOtherEventsTokenIsRefused() {
        List<String> waiting = offered(3, 2);
        String alice = VisitorId.random().value();
        String bob = VisitorId.random().value();
        JsonNode aliceSession = claim(waiting.get(0), alice).json();
        JsonNode bobSession = claim(waiting.get(1), bob).json();
        String aliceToken = aliceSession.path("token").asString();
        String bobToken = bobSession.path("token").asString();
        AdmissionClaims bobClaims = verifier().verify(bobToken, this.eventId, 1);

        String otherEvent = Scenario.eventId("tokens-other");
        this.scenario.openEvent(otherEvent, config(2));
        String otherWaiting = this.scenario.join(otherEvent, 1).get(0);
        this.scenario.tickUntilLive(otherEvent, 1);
        String otherToken = this.http
                .post(
                        "/events/" + otherEvent + "/admission/claim",
                        null,
                        Headers.VISITOR,
                        otherWaiting,
                        Headers.NEXT_VISITOR,
                        bob)
                .json()
                .path("token")
                .asString();

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
        assertThat(live(aliceSession.path("sessionId").asString())).isTrue();
        assertThat(live(bobSession.path("sessionId").asString())).isTrue();
    }

    @Test
    void theTokenOfAnEarlierSessionIsRefusedWhileTheNewOneLives() {
        String waiting = offered(2, 1).get(0);
        String first = VisitorId.random().value();
        JsonNode earlier = claim(waiting, first).json();
        String earlierToken = earlier.path("token").asString();
        assertThat(session("leave", first, "Authorization", "Bearer " + earlierToken)
                        .status())
                .isEqualTo(200);

        // the same browser queues again under its shopping id and is admitted once more, under yet another id
        this.scenario.queue.join(this.eventId, first);
        this.scenario.tickUntilLive(this.eventId, 1);
        String second = VisitorId.random().value();
        JsonNode current = claim(first, second).json();
        assertThat(current.path("sessionId").asString())
                .isNotEqualTo(earlier.path("sessionId").asString());

        Http.Response renewEnded = session("renew", first, "Authorization", "Bearer " + earlierToken);
        assertThat(renewEnded.status()).isEqualTo(401);
        assertThat(renewEnded.problemType()).endsWith("/admission-session-ended");
        for (String call : List.of("renew", "leave")) {
            Http.Response r = session(call, second, "Authorization", "Bearer " + earlierToken);
            assertThat(r.status()).isEqualTo(401);
            assertThat(r.problemType()).endsWith("/admission-token-invalid");
        }
        // leaving the ended session again is harmless and touches nothing else
        assertThat(session("leave", first, "Authorization", "Bearer " + earlierToken)
                        .status())
                .isEqualTo(200);
        assertThat(live(current.path("sessionId").asString())).isTrue();
        assertThat(session(
                                "renew",
                                second,
                                "Authorization",
                                "Bearer " + current.path("token").asString())
                        .status())
                .isEqualTo(200);
    }

    @Test
    void theVisitorIdRotatesAtClaimAndTheOldOneCannotUseTheSession() {
        String waiting = offered(2, 1).get(0);
        String shopping = VisitorId.random().value();

        Http.Response claimed = claim(waiting, shopping);
        assertThat(claimed.status()).isEqualTo(200);
        assertThat(claimed.header(Headers.VISITOR)).isEqualTo(shopping);
        JsonNode session = claimed.json();
        String token = session.path("token").asString();
        assertThat(verifier().verify(token, this.eventId, 1).visitor()).isEqualTo(shopping);
        // the queue entry stays the waiting id's: the coordinator moves it by entry and grant id
        assertThat(this.scenario.queue.entry(this.eventId, waiting).state())
                .isEqualTo(InMemoryQueueDirectory.State.ACTIVE);
        assertThat(this.scenario.queue.entry(this.eventId, shopping)).isNull();

        // the waiting id is spent: no second claim, and even with the token it cannot renew or leave
        Http.Response again = claim(waiting, VisitorId.random().value());
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemType()).endsWith("/offer-claimed");
        assertThat(again.body()).doesNotContain("\"token\"");
        for (String call : List.of("renew", "leave")) {
            Http.Response r = session(call, waiting, "Authorization", "Bearer " + token);
            assertThat(r.status()).as(call).isEqualTo(401);
            assertThat(r.problemType()).endsWith("/admission-token-invalid");
        }
        assertThat(live(session.path("sessionId").asString())).isTrue();

        // the new id claims again idempotently and keeps its identity (no second rotation)
        Http.Response repeat = claim(shopping, VisitorId.random().value());
        assertThat(repeat.status()).isEqualTo(200);
        assertThat(repeat.header(Headers.VISITOR)).isEqualTo(shopping);
        assertThat(repeat.json().path("sessionId").asString())
                .isEqualTo(session.path("sessionId").asString());

        assertThat(session("leave", shopping, "Authorization", "Bearer " + token)
                        .status())
                .isEqualTo(200);
        assertThat(this.scenario.queue.entry(this.eventId, waiting).state())
                .isEqualTo(InMemoryQueueDirectory.State.COMPLETED);
    }

    @Test
    void concurrentClaimsWithDifferentNewIdsBindTheSessionToExactlyOne() throws Exception {
        String waiting = offered(2, 1).get(0);
        int claims = 50;
        ExecutorService pool = Executors.newFixedThreadPool(16);
        CountDownLatch start = new CountDownLatch(1);
        ConcurrentHashMap<String, String> bound = new ConcurrentHashMap<>();
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < claims; i++) {
            statuses.add(pool.submit(() -> {
                start.await();
                Http.Response r = claim(waiting, VisitorId.random().value());
                if (r.status() == 200) {
                    bound.put(
                            r.header(Headers.VISITOR),
                            r.json().path("sessionId").asString());
                }
                return r.status();
            }));
        }
        start.countDown();
        int won = 0;
        for (Future<Integer> status : statuses) {
            int s = status.get();
            assertThat(s).isIn(200, 409);
            won += s == 200 ? 1 : 0;
        }
        pool.shutdown();

        assertThat(won).isEqualTo(1);
        assertThat(bound).hasSize(1);
        assertThat(this.scenario.grants.count(this.eventId).active()).isEqualTo(1);
    }

    @Test
    void aMalformedNextVisitorIsAProblemThatChangesNothing() {
        String waiting = offered(2, 1).get(0);
        Http.Response r = claim(waiting, "not a visitor id");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.problemType()).endsWith("/invalid-visitor");
        assertThat(this.scenario.grants.count(this.eventId).offered()).isEqualTo(1);
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

    private Http.Response claim(String visitor, String next) {
        return this.http.post(
                "/events/" + this.eventId + "/admission/claim",
                null,
                Headers.VISITOR,
                visitor,
                Headers.NEXT_VISITOR,
                next);
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
