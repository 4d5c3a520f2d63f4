package dev.waitroom.coordinator.passes;

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
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 30, item 3, over real HTTP, PostgreSQL and Redis: ops issue, list and revoke staff and partner passes (stored
 * hashed, audited); a valid pass opens a shopping session without a place in the queue, through the same ceiling as
 * every offer (never over it, even under concurrent exchanges); forged, tampered, expired, revoked, used-up and other
 * events' passes are refused with their problem types and open nothing; revoking a pass ends its sessions.
 */
@CoordinatorTest
class PassesTests {

    @Autowired
    Scenario scenario;

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcClient jdbc;

    Http ops;

    Http http;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
        this.http = this.scenario.http();
    }

    private String openEvent(int ceiling) {
        return this.scenario.openNewEvent(
                "passes",
                Scenario.config(ceiling, 5, 5, 30, 60, 600, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
    }

    private Http.Response issue(String eventId, String holder, Instant expiresAt, Integer maxUses) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("holder", holder);
        body.put("expiresAt", expiresAt == null ? null : expiresAt.toString());
        if (maxUses != null) {
            body.put("maxUses", maxUses);
        }
        body.put("reason", "door staff");
        return this.ops.post("/admin/events/" + eventId + "/passes", Http.json(body));
    }

    private String newPass(String eventId, int maxUses) {
        Http.Response issued = issue(eventId, "Door staff", this.scenario.now().plus(Duration.ofHours(2)), maxUses);
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        return issued.json().path("pass").asString();
    }

    private Http.Response exchange(String eventId, String visitor, String pass) {
        return this.http.post(
                "/events/" + eventId + "/admission/pass", null, Headers.VISITOR, visitor, "Waitroom-Pass", pass);
    }

    private boolean live(String eventId, String sessionId) {
        return this.redisson
                .getBucket(RedisKeys.session(EventId.of(eventId), sessionId), StringCodec.INSTANCE)
                .isExists();
    }

    private List<String> auditReasons(String id) {
        return this.jdbc
                .sql("select reason from mode_changes where event_id = :id and kind = 'CONFIG' order by id")
                .param("id", id)
                .query(String.class)
                .list();
    }

    private AdmissionTokenVerifier verifier() {
        Http anonymous = new Http(this.scenario.port());
        return AdmissionTokenVerifier.of(
                () -> anonymous.get("/.well-known/jwks.json").body(), this.scenario.clock);
    }

    @Test
    void opsIssueListAndRevokePassesStoredHashedAndAudited() {
        String eventId = openEvent(4);
        Http.Response issued =
                issue(eventId, "Partner: Acme Tours", this.scenario.now().plus(Duration.ofDays(1)), 3);
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        assertThat(issued.header("Cache-Control")).contains("no-store");
        JsonNode view = issued.json();
        String pass = view.path("pass").asString();
        String passId = view.path("passId").asString();
        assertThat(pass).startsWith("wrp_" + passId + "_").hasSize(PassSecret.LENGTH);
        assertThat(view.path("state").asString()).isEqualTo("VALID");
        assertThat(view.path("maxUses").asInt()).isEqualTo(3);
        assertThat(view.path("createdBy").asString()).isNotBlank();

        Http.Response listed = this.ops.get("/admin/events/" + eventId + "/passes");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.body()).doesNotContain(pass.substring(pass.lastIndexOf('_') + 1));
        assertThat(listed.json().get(0).path("pass").isNull()).isTrue();
        assertThat(listed.json().get(0).path("holder").asString()).isEqualTo("Partner: Acme Tours");
        byte[] stored = this.jdbc
                .sql("select secret_sha256 from passes where pass_id = :id")
                .param("id", passId)
                .query(byte[].class)
                .single();
        assertThat(stored).hasSize(32);
        assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(pass.substring(pass.lastIndexOf('_') + 1));

        Http.Response revoked = this.ops.send(
                "DELETE", "/admin/events/" + eventId + "/passes/" + passId, Http.json(Map.of("reason", "leaked")));
        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        assertThat(revoked.json().path("state").asString()).isEqualTo("REVOKED");
        assertThat(revoked.json().path("revokeReason").asString()).isEqualTo("leaked");
        assertThat(auditReasons(eventId))
                .anyMatch(r -> r.startsWith("pass " + passId + " issued to Partner: Acme Tours until")
                        && r.endsWith(": door staff"))
                .anyMatch(r -> r.equals("pass " + passId + " of Partner: Acme Tours revoked: leaked"))
                .noneMatch(r -> r.contains(pass));

        this.ops
                .send("DELETE", "/admin/events/" + eventId + "/passes/0123456789abcdef", null)
                .problemType();
        assertThat(this.ops
                        .send("DELETE", "/admin/events/" + eventId + "/passes/0123456789abcdef", null)
                        .problemType())
                .endsWith("/pass-not-found");
    }

    @Test
    void badIssueRequestsAreRefusedAndIssueNothing() {
        String eventId = openEvent(4);
        Instant now = this.scenario.now();
        for (Http.Response refused : List.of(
                issue(eventId, "Staff", null, 1),
                issue(eventId, "Staff", now.minusSeconds(1), 1),
                issue(eventId, "Staff", now.plus(Duration.ofDays(31)), 1),
                issue(eventId, "Staff", now.plusSeconds(60), 0),
                issue(eventId, null, now.plusSeconds(60), 1),
                issue(eventId, "Sta\u0000ff", now.plusSeconds(60), 1))) {
            assertThat(refused.status()).as(refused.body()).isEqualTo(400);
            assertThat(refused.contentType()).startsWith("application/problem+json");
        }
        assertThat(this.ops.get("/admin/events/" + eventId + "/passes").json().size())
                .isZero();
        assertThat(issue("no-such-event", "Staff", now.plusSeconds(60), 1).status())
                .isEqualTo(404);
    }

    @Test
    void aValidPassOpensASessionWithoutAPlaceInTheQueueAndARepeatGetsTheSameSession() {
        String eventId = openEvent(2);
        String pass = newPass(eventId, 1);
        String visitor = VisitorId.random().value();

        Http.Response admitted = exchange(eventId, visitor, pass);
        assertThat(admitted.status()).as(admitted.body()).isEqualTo(200);
        assertThat(admitted.header("Cache-Control")).contains("no-store");
        String token = admitted.json().path("token").asString();
        String sessionId = admitted.json().path("sessionId").asString();
        assertThat(admitted.header("Set-Cookie")).startsWith("wr_at=" + token).contains("Path=/events/" + eventId);
        AdmissionClaims claims = verifier().verify(token, eventId, 1);
        assertThat(claims.visitor()).isEqualTo(visitor);
        assertThat(live(eventId, sessionId)).isTrue();
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(1);
        assertThat(this.scenario.queue.entry(eventId, visitor))
                .as("no queue entry")
                .isNull();
        JsonNode liveView = this.ops.get("/admin/events/" + eventId).json();
        assertThat(liveView.path("active").asLong()).isEqualTo(1);
        assertThat(liveView.path("drift").asLong())
                .as("the queue never heard of the pass's session: no drift")
                .isZero();

        Http.Response again = exchange(eventId, visitor, pass);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("sessionId").asString()).isEqualTo(sessionId);

        // one use only: another browser with the same pass gets nothing
        Http.Response other = exchange(eventId, VisitorId.random().value(), pass);
        assertThat(other.status()).as(other.body()).isEqualTo(409);
        assertThat(other.problemType()).endsWith("/pass-used-up");
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(1);

        // the session renews as a claimed one does
        this.scenario.clock.advance(Duration.ofSeconds(20));
        Http.Response renewed = this.http.post(
                "/events/" + eventId + "/shopping-session/renew",
                null,
                Headers.VISITOR,
                visitor,
                "Authorization",
                "Bearer " + token);
        assertThat(renewed.status()).as(renewed.body()).isEqualTo(200);
    }

    @Test
    void forgedTamperedMalformedExpiredRevokedAndOtherEventsPassesAreRefusedAndOpenNothing() {
        String eventId = openEvent(4);
        String otherEvent = openEvent(4);
        String pass = newPass(eventId, 5);
        String forged = PassSecret.random().text();
        char last = pass.charAt(pass.length() - 1);
        String tampered = pass.substring(0, pass.length() - 1) + (last == 'A' ? 'B' : 'A');
        String visitor = VisitorId.random().value();

        for (String bad : List.of(forged, tampered, "wrp_short", "", "Bearer " + pass, pass + "x")) {
            Http.Response refused = exchange(eventId, visitor, bad);
            assertThat(refused.status()).as(bad).isEqualTo(401);
            assertThat(refused.problemType()).as(bad).endsWith("/pass-invalid");
            assertThat(refused.body()).doesNotContain("\"token\"");
        }
        Http.Response missing =
                this.http.post("/events/" + eventId + "/admission/pass", null, Headers.VISITOR, visitor);
        assertThat(missing.problemType()).endsWith("/pass-invalid");

        Http.Response elsewhere = exchange(otherEvent, visitor, pass);
        assertThat(elsewhere.status()).isEqualTo(403);
        assertThat(elsewhere.problemType()).endsWith("/pass-other-event");

        Http.Response shortLived = issue(eventId, "Temp", this.scenario.now().plus(Duration.ofMinutes(1)), 1);
        String expiring = shortLived.json().path("pass").asString();
        this.scenario.clock.advance(Duration.ofMinutes(2));
        Http.Response expired = exchange(eventId, visitor, expiring);
        assertThat(expired.status()).isEqualTo(401);
        assertThat(expired.problemType()).endsWith("/pass-expired");

        String passId = pass.substring(4, 20);
        this.ops.send("DELETE", "/admin/events/" + eventId + "/passes/" + passId, null);
        Http.Response revoked = exchange(eventId, visitor, pass);
        assertThat(revoked.status()).isEqualTo(401);
        assertThat(revoked.problemType()).endsWith("/pass-revoked");

        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();
        assertThat(this.scenario.grants.count(EventId.of(otherEvent)).live()).isZero();
    }

    @Test
    void concurrentExchangesAtTheCeilingNeverGoOverIt() throws Exception {
        String eventId = openEvent(3);
        // one place taken from the queue first: passes share the ceiling with offers
        this.scenario.join(eventId, 1);
        this.scenario.tickUntilLive(eventId, 1);
        String pass = newPass(eventId, 50);

        int attempts = 12;
        ExecutorService pool = Executors.newFixedThreadPool(attempts);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Http.Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < attempts; i++) {
                String visitor = VisitorId.random().value();
                answers.add(pool.submit(() -> {
                    start.await();
                    return exchange(eventId, visitor, pass);
                }));
            }
            start.countDown();
            int admitted = 0;
            for (Future<Http.Response> answer : answers) {
                Http.Response r = answer.get();
                if (r.status() == 200) {
                    admitted++;
                } else {
                    assertThat(r.status()).as(r.body()).isEqualTo(503);
                    assertThat(r.problemType()).endsWith("/at-ceiling");
                    assertThat(r.header("Retry-After")).isEqualTo("5");
                }
            }
            assertThat(admitted).isEqualTo(2);
        } finally {
            pool.shutdownNow();
        }
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isEqualTo(3);
        assertThat(this.ops
                        .get("/admin/events/" + eventId + "/passes")
                        .json()
                        .get(0)
                        .path("uses")
                        .asInt())
                .as("only the sessions opened used the pass")
                .isEqualTo(2);
        // and the queue gets nothing more either
        this.scenario.join(eventId, 2);
        assertThat(this.scenario.tick(eventId, Duration.ofSeconds(1))).isZero();
    }

    @Test
    void concurrentExchangesOfOneBrowserConvergeOnOneSessionAndOneUse() throws Exception {
        String eventId = openEvent(4);
        String pass = newPass(eventId, 5);
        String visitor = VisitorId.random().value();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Http.Response>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return exchange(eventId, visitor, pass);
                }));
            }
            start.countDown();
            java.util.Set<String> sessions = new java.util.HashSet<>();
            for (Future<Http.Response> answer : answers) {
                Http.Response r = answer.get();
                assertThat(r.status()).as(r.body()).isEqualTo(200);
                sessions.add(r.json().path("sessionId").asString());
            }
            assertThat(sessions).hasSize(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isEqualTo(1);
        assertThat(this.ops
                        .get("/admin/events/" + eventId + "/passes")
                        .json()
                        .get(0)
                        .path("uses")
                        .asInt())
                .isEqualTo(1);
    }

    @Test
    void revokingAPassEndsItsSessionsAndTheirRenewal() {
        String eventId = openEvent(4);
        String pass = newPass(eventId, 2);
        String visitor = VisitorId.random().value();
        JsonNode session = exchange(eventId, visitor, pass).json();
        String sessionId = session.path("sessionId").asString();
        assertThat(live(eventId, sessionId)).isTrue();

        Http.Response revoked =
                this.ops.send("DELETE", "/admin/events/" + eventId + "/passes/" + pass.substring(4, 20), null);
        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        assertThat(live(eventId, sessionId))
                .as("out of the registry the gateways read")
                .isFalse();
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();

        Http.Response renewed = this.http.post(
                "/events/" + eventId + "/shopping-session/renew",
                null,
                Headers.VISITOR,
                visitor,
                "Authorization",
                "Bearer " + session.path("token").asString());
        assertThat(renewed.status()).as(renewed.body()).isEqualTo(401);
    }
}
