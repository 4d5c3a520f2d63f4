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
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
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

@CoordinatorTest
class ClaimTests {

    @Autowired
    Scenario scenario;

    @Autowired
    RedissonClient redisson;

    Http http;

    String eventId;

    @BeforeEach
    void setUp() {
        this.http = this.scenario.http();
        this.eventId = Scenario.eventId("claim");
    }

    private Http.Response claim(String visitor) {
        return this.http.post("/events/" + this.eventId + "/admission/claim", null, Headers.VISITOR, visitor);
    }

    /** A claim with the browser's claim key, as the waiting page sends it. */
    private Http.Response claim(String visitor, String key) {
        return this.http.post(
                "/events/" + this.eventId + "/admission/claim",
                null,
                Headers.VISITOR,
                visitor,
                Headers.IDEMPOTENCY_KEY,
                key);
    }

    private List<String> offered(int ceiling, int visitors, ExpiredOfferPolicy policy, AfterPurchase after) {
        this.scenario.openEvent(this.eventId, Scenario.config(ceiling, 1000, 100, 30, 120, 300, policy, after));
        List<String> joined = this.scenario.join(this.eventId, visitors);
        this.scenario.tickUntilLive(this.eventId, Math.min(ceiling, visitors));
        return joined;
    }

    @Test
    void claimActivatesTheSessionSetsTheCookieAndIssuesAVerifiableToken() throws Exception {
        String visitor = offered(5, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);

        Http.Response response = claim(visitor);

        assertThat(response.status()).isEqualTo(200);
        JsonNode body = response.json();
        assertThat(body.path("state").asString()).isEqualTo("ACTIVE");
        assertThat(body.path("eventId").asString()).isEqualTo(this.eventId);
        String token = body.path("token").asString();
        assertThat(response.header("Set-Cookie"))
                .startsWith("wr_at=" + token)
                .contains("Path=/events/" + this.eventId + ";")
                .contains("HttpOnly")
                .contains("SameSite=Lax");
        assertThat(response.header("Cache-Control")).contains("no-store");
        AdmissionClaims claims = verifier().verify(token, this.eventId, 1);
        assertThat(claims.sessionId()).isEqualTo(body.path("sessionId").asString());
        assertThat(claims.visitor()).isEqualTo(visitor);
        String key = RedisKeys.session(EventId.of(this.eventId), claims.sessionId());
        assertThat((String) this.redisson.getBucket(key, StringCodec.INSTANCE).get())
                .isEqualTo("1");
        assertThat(this.redisson.getBucket(key, StringCodec.INSTANCE).remainTimeToLive())
                .isPositive();
        assertThat(this.scenario.queue.entry(this.eventId, visitor).state()).isEqualTo(FakeQueueEntry.State.ACTIVE);
        assertThat(verifierRejects(token, "other-event")).isTrue();
    }

    @Test
    void twoHundredConcurrentClaimsByOneBrowserConvergeOnOneSession() throws Exception {
        String visitor = offered(3, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        String key = UUID.randomUUID().toString();
        int claims = 200;
        ExecutorService pool = Executors.newFixedThreadPool(32);
        CountDownLatch start = new CountDownLatch(1);
        Set<String> sessions = ConcurrentHashMap.newKeySet();
        List<Future<Integer>> statuses = new ArrayList<>();
        for (int i = 0; i < claims; i++) {
            statuses.add(pool.submit(() -> {
                start.await();
                Http.Response r = claim(visitor, key);
                if (r.status() == 200) {
                    sessions.add(r.json().path("sessionId").asString());
                }
                return r.status();
            }));
        }
        start.countDown();
        for (Future<Integer> status : statuses) {
            assertThat(status.get()).isEqualTo(200);
        }
        pool.shutdown();

        assertThat(sessions).hasSize(1);
        LiveCounts counts = this.scenario.grants.count(EventId.of(this.eventId));
        assertThat(counts.active()).isEqualTo(1);
        assertThat(counts.offered()).isZero();
    }

    @Test
    void repeatedClaimReturnsTheSameSessionWithAFreshToken() {
        String visitor = offered(2, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        String key = UUID.randomUUID().toString();
        JsonNode first = claim(visitor, key).json();
        this.scenario.clock.advance(Duration.ofSeconds(2));
        JsonNode second = claim(visitor, key).json();
        assertThat(second.path("sessionId").asString())
                .isEqualTo(first.path("sessionId").asString());
        assertThat(second.path("expiresAt").asString())
                .isEqualTo(first.path("expiresAt").asString());
        assertThat(second.path("token").asString())
                .isNotEqualTo(first.path("token").asString());
    }

    @Test
    void lateClaimIsAProblemAndRequeueOnceThenDrop() {
        String visitor = offered(1, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).offered())
                .isEqualTo(1);

        this.scenario.clock.advance(Duration.ofSeconds(31));
        Http.Response late = claim(visitor);

        assertThat(late.status()).isEqualTo(410);
        assertThat(late.contentType()).startsWith("application/problem+json");
        assertThat(late.problemType()).isEqualTo("https://waitroom.dev/problems/offer-expired");
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).live()).isZero();
        FakeQueueEntry entry = this.scenario.queue.entry(this.eventId, visitor);
        assertThat(entry.state()).isEqualTo(FakeQueueEntry.State.WAITING);
        assertThat(entry.requeues()).isEqualTo(1);

        // Back of the queue once: offered again, left unclaimed, released by the ticker this time, then dropped.
        this.scenario.tickUntilLive(this.eventId, 1);
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).offered())
                .isEqualTo(1);
        this.scenario.tick(this.eventId, Duration.ofSeconds(31));
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).live()).isZero();
        assertThat(entry.state()).isEqualTo(FakeQueueEntry.State.EXPIRED);
        this.scenario.tick(this.eventId, Duration.ofSeconds(1));
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).live()).isZero();
        assertThat(claim(visitor).problemType()).isEqualTo("https://waitroom.dev/problems/offer-expired");
    }

    @Test
    void dropPolicyEndsTheEntryAtTheFirstMissedDeadline() {
        String visitor =
                offered(1, 1, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE).get(0);
        this.scenario.tick(this.eventId, Duration.ofSeconds(31));
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).live()).isZero();
        assertThat(this.scenario.queue.entry(this.eventId, visitor).state()).isEqualTo(FakeQueueEntry.State.EXPIRED);
    }

    @Test
    void renewExtendsButNeverPastTheAbsoluteLimit() {
        String visitor = offered(1, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        JsonNode session = claim(visitor).json();
        String absolute = session.path("absoluteExpiresAt").asString();
        String bearer = "Bearer " + session.path("token").asString();

        this.scenario.clock.advance(Duration.ofSeconds(100));
        JsonNode renewed = this.http
                .post(
                        "/events/" + this.eventId + "/shopping-session/renew",
                        null,
                        Headers.VISITOR,
                        visitor,
                        "Authorization",
                        bearer)
                .json();
        assertThat(renewed.path("sessionId").asString())
                .isEqualTo(session.path("sessionId").asString());
        assertThat(java.time.Instant.parse(renewed.path("expiresAt").asString()))
                .isAfter(java.time.Instant.parse(session.path("expiresAt").asString()));

        this.scenario.clock.advance(Duration.ofSeconds(110));
        String renewedBearer = "Bearer " + renewed.path("token").asString();
        JsonNode capped = this.http
                .post(
                        "/events/" + this.eventId + "/shopping-session/renew",
                        null,
                        Headers.VISITOR,
                        visitor,
                        "Authorization",
                        renewedBearer)
                .json();
        assertThat(capped.path("expiresAt").asString()).isEqualTo(absolute);

        // past the absolute limit (the token's expiry is still within the verifier's skew)
        this.scenario.clock.advance(Duration.ofSeconds(91));
        Http.Response over = this.http.post(
                "/events/" + this.eventId + "/shopping-session/renew",
                null,
                Headers.VISITOR,
                visitor,
                "Authorization",
                "Bearer " + capped.path("token").asString());
        assertThat(over.status()).isEqualTo(409);
        assertThat(over.problemType()).isEqualTo("https://waitroom.dev/problems/no-live-session");
        assertThat(over.body()).doesNotContain("\"token\"");
    }

    @Test
    void leaveIsIdempotentAndRemovesTheRegistryEntryBeforeCapacityReturns() {
        String visitor = offered(1, 2, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        JsonNode session = claim(visitor).json();
        String sessionId = session.path("sessionId").asString();
        String cookie = "wr_at=" + session.path("token").asString();
        String key = RedisKeys.session(EventId.of(this.eventId), sessionId);
        assertThat(this.redisson.getBucket(key, StringCodec.INSTANCE).isExists())
                .isTrue();

        for (int i = 0; i < 3; i++) {
            Http.Response left = this.http.post(
                    "/events/" + this.eventId + "/shopping-session/leave",
                    null,
                    Headers.VISITOR,
                    visitor,
                    "Cookie",
                    cookie);
            assertThat(left.status()).isEqualTo(200);
            assertThat(left.header("Set-Cookie")).contains("wr_at=").contains("Max-Age=0");
        }

        assertThat(this.redisson.getBucket(key, StringCodec.INSTANCE).isExists())
                .isFalse();
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).live()).isZero();
        assertThat(this.scenario.grants.releasedByReason(EventId.of(this.eventId)))
                .containsEntry("LEFT", 1L);
        // A claim after leaving cannot revive the session.
        Http.Response again = claim(visitor);
        assertThat(again.status()).isEqualTo(409);
        assertThat(this.redisson.getBucket(key, StringCodec.INSTANCE).isExists())
                .isFalse();
    }

    @Test
    void badInputIsAProblemThatChangesNothing() {
        String visitor = offered(1, 1, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE)
                .get(0);
        Map<String, Http.Response> answers = Map.of(
                "malformed visitor",
                claim("not-a-visitor-id"),
                "missing visitor",
                this.http.post("/events/" + this.eventId + "/admission/claim", null),
                "malformed event id",
                this.http.post("/events/bad%7Bid%7D/admission/claim", null, Headers.VISITOR, visitor),
                "unknown event",
                this.http.post("/events/no-such-event/admission/claim", null, Headers.VISITOR, visitor),
                "other visitor",
                claim(VisitorId.random().value()),
                "no internal credential",
                new Http(this.scenario.port())
                        .post("/events/" + this.eventId + "/admission/claim", null, Headers.VISITOR, visitor),
                "oversized body",
                this.http.post(
                        "/events/" + this.eventId + "/admission/claim", "x".repeat(20_000), Headers.VISITOR, visitor));
        assertThat(answers.get("malformed visitor").status()).isEqualTo(400);
        assertThat(answers.get("missing visitor").problemType()).endsWith("/invalid-visitor");
        assertThat(answers.get("malformed event id").status()).isEqualTo(400);
        assertThat(answers.get("unknown event").status()).isEqualTo(404);
        assertThat(answers.get("unknown event").problemType()).endsWith("/unknown-event");
        assertThat(answers.get("other visitor").status()).isEqualTo(409);
        assertThat(answers.get("other visitor").problemType()).endsWith("/no-offer");
        assertThat(answers.get("no internal credential").status()).isEqualTo(403);
        assertThat(answers.get("oversized body").status()).isEqualTo(413);
        answers.forEach((what, r) -> assertThat(r.contentType()).as(what).startsWith("application/problem+json"));

        LiveCounts counts = this.scenario.grants.count(EventId.of(this.eventId));
        assertThat(counts.offered()).isEqualTo(1);
        assertThat(counts.active()).isZero();
    }

    private AdmissionTokenVerifier verifier() {
        Http anonymous = new Http(this.scenario.port());
        return AdmissionTokenVerifier.of(
                () -> anonymous.get("/.well-known/jwks.json").body(), this.scenario.clock);
    }

    private boolean verifierRejects(String token, String event) {
        try {
            verifier().verify(token, event, 1);
            return false;
        } catch (TokenRejectedException ex) {
            return true;
        }
    }
}
