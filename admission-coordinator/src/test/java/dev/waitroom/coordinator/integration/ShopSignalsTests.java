package dev.waitroom.coordinator.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.coordinator.grants.Admission;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The shop signals and their integration credentials (issue 27, item 6; docs/integration/shop-signals.md) over real
 * HTTP and PostgreSQL: ops create, list and revoke credentials (two live at most, the secret shown once, only its hash
 * stored); a signal needs a live credential of its own event, and nothing else passes for one; purchase-completed and
 * session-release return the session's capacity once however often and however concurrently they are sent; sold-out
 * marks a category or the event; bad input is a problem naming it.
 */
@CoordinatorTest
class ShopSignalsTests {

    @Autowired
    Scenario scenario;

    @Autowired
    Admissions admissions;

    @Autowired
    MeterRegistry meters;

    @Autowired
    JdbcClient jdbc;

    private String openEvent(String prefix, AfterPurchase afterPurchase) {
        return this.scenario.openNewEvent(
                prefix, Scenario.config(5, 100, 10, 30, 120, 300, ExpiredOfferPolicy.REQUEUE_ONCE, afterPurchase));
    }

    private Http.Response createCredential(String eventId, String body) {
        return this.scenario.ops().post("/admin/events/" + eventId + "/integration-credentials", body);
    }

    private String credential(String eventId) {
        Http.Response created = createCredential(eventId, "{\"label\":\"shop\"}");
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json().path("secret").asString();
    }

    /** As the gateway forwards a shop's signal: the internal credential and the shop's own bearer. */
    private Http.Response signal(String eventId, String name, String body, String credential) {
        return this.scenario
                .http()
                .post("/events/" + eventId + "/signals/" + name, body, "Authorization", "Bearer " + credential);
    }

    /** A visitor joined, offered and admitted: the session's id. */
    private String admitOne(String eventId) {
        String visitor = this.scenario.join(eventId, 1).get(0);
        this.scenario.tickUntilLive(eventId, 1);
        Admission admission = this.admissions.claim(EventId.of(eventId), new VisitorId(visitor));
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(1);
        return admission.sessionId().value().toString();
    }

    private double releases(String eventId, String reason) {
        return this.meters
                .find("waitroom.coordinator.releases")
                .tag("event", eventId)
                .tag("reason", reason)
                .counters()
                .stream()
                .mapToDouble(Counter::count)
                .sum();
    }

    @Test
    void opsCreateListAndRevokeCredentialsTwoLiveAtMostAndTheSecretShownOnce() {
        String eventId = openEvent("cred", AfterPurchase.RELEASE);

        Http.Response first = createCredential(eventId, "{\"label\":\"box office\"}");
        assertThat(first.status()).as(first.body()).isEqualTo(201);
        assertThat(first.header("Cache-Control")).contains("no-store");
        String secret = first.json().path("secret").asString();
        String id = first.json().path("credentialId").asString();
        assertThat(secret).matches("wric_[0-9a-f]{16}_[A-Za-z0-9_-]{43}").startsWith("wric_" + id + "_");
        assertThat(first.json().path("state").asString()).isEqualTo("LIVE");
        assertThat(first.json().path("createdBy").asString()).isEqualTo("ops");
        assertThat(first.header("Location")).endsWith("/admin/events/" + eventId + "/integration-credentials/" + id);
        byte[] stored = this.jdbc
                .sql("select secret_sha256 from integration_credentials where credential_id = :id")
                .param("id", id)
                .query(byte[].class)
                .single();
        assertThat(stored).hasSize(32);
        assertThat(new String(stored, java.nio.charset.StandardCharsets.ISO_8859_1))
                .doesNotContain(secret.substring(22));

        Http.Response second = createCredential(eventId, null);
        assertThat(second.status()).as(second.body()).isEqualTo(201);
        Http.Response third = createCredential(eventId, null);
        assertThat(third.status()).as(third.body()).isEqualTo(409);
        assertThat(third.problemType()).endsWith("/integration-credential-limit");

        Http.Response listed = this.scenario.ops().get("/admin/events/" + eventId + "/integration-credentials");
        assertThat(listed.status()).isEqualTo(200);
        assertThat(listed.json()).hasSize(2);
        assertThat(listed.body()).doesNotContain(secret.substring(22));
        listed.json().forEach(c -> assertThat(c.path("secret").isNull()).isTrue());

        Http.Response revoked =
                this.scenario.ops().send("DELETE", "/admin/events/" + eventId + "/integration-credentials/" + id, null);
        assertThat(revoked.status()).as(revoked.body()).isEqualTo(200);
        assertThat(revoked.json().path("state").asString()).isEqualTo("REVOKED");
        String revokedAt = revoked.json().path("revokedAt").asString();
        Http.Response again =
                this.scenario.ops().send("DELETE", "/admin/events/" + eventId + "/integration-credentials/" + id, null);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("revokedAt").asString()).as("idempotent").isEqualTo(revokedAt);
        assertThat(createCredential(eventId, null).status())
                .as("a revoked one frees its place")
                .isEqualTo(201);

        Http.Response unknown = this.scenario
                .ops()
                .send("DELETE", "/admin/events/" + eventId + "/integration-credentials/0123456789abcdef", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.problemType()).endsWith("/integration-credential-not-found");
        Http.Response otherEvents = this.scenario
                .ops()
                .send(
                        "DELETE",
                        "/admin/events/" + openEvent("cred-other", AfterPurchase.RELEASE) + "/integration-credentials/"
                                + second.json().path("credentialId").asString(),
                        null);
        assertThat(otherEvents.status())
                .as("another event's credential is not found here")
                .isEqualTo(404);
        assertThat(createCredential("no-such-event", null).status()).isEqualTo(404);
        assertThat(createCredential(eventId, "{\"label\":\"" + "x".repeat(65) + "\"}")
                        .status())
                .isEqualTo(400);
    }

    @Test
    void concurrentCreationsNeverMakeAThirdLiveCredential() throws Exception {
        String eventId = openEvent("cred-race", AfterPurchase.RELEASE);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Integer>> answers = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return createCredential(eventId, null).status();
                }));
            }
            start.countDown();
            List<Integer> statuses = new ArrayList<>();
            for (Future<Integer> answer : answers) {
                statuses.add(answer.get());
            }
            assertThat(statuses)
                    .containsOnly(201, 409)
                    .filteredOn(s -> s == 201)
                    .hasSize(2);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void onlyALiveCredentialOfTheEventItselfPassesForOne() {
        String eventId = openEvent("auth", AfterPurchase.RELEASE);
        String other = openEvent("auth-other", AfterPurchase.RELEASE);
        String good = credential(eventId);
        String othersCredential = credential(other);
        String body = "{\"category\":\"Floor\"}";

        Http.Response none = this.scenario.http().post("/events/" + eventId + "/signals/sold-out", body);
        assertThat(none.status()).isEqualTo(401);
        assertThat(none.problemType()).endsWith("/integration-credential-required");
        assertThat(none.contentType()).startsWith("application/problem+json");
        assertThat(none.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"waitroom-signals\"");

        char last = good.charAt(good.length() - 1);
        Map<String, String> refused = new LinkedHashMap<>();
        refused.put("garbage", "abc");
        refused.put("the ops token", this.scenario.security().opsToken());
        refused.put("the gateway's credential", RandomSecretsInitializer.GATEWAY.credential());
        refused.put("a tampered secret", good.substring(0, good.length() - 1) + (last == 'A' ? 'B' : 'A'));
        refused.put("a made-up id", "wric_0123456789abcdef_" + good.substring(good.length() - 43));
        refused.put("too long", good + "A");
        refused.put("upper-case id", good.toUpperCase(java.util.Locale.ROOT));
        refused.forEach((what, presented) -> {
            Http.Response answer = signal(eventId, "sold-out", body, presented);
            assertThat(answer.status()).as(what).isEqualTo(401);
            assertThat(answer.problemType()).as(what).endsWith("/integration-credential-required");
            assertThat(answer.header("WWW-Authenticate")).as(what).startsWith("Bearer realm=\"waitroom-signals\"");
        });
        assertThat(signal(eventId, "sold-out", body, good.substring(0, good.length() - 1) + 'Z')
                        .header("WWW-Authenticate"))
                .contains("error=\"invalid_token\"");

        Http.Response wrongEvent = signal(eventId, "sold-out", body, othersCredential);
        assertThat(wrongEvent.status()).isEqualTo(403);
        assertThat(wrongEvent.problemType()).endsWith("/integration-credential-forbidden");
        assertThat(this.jdbc
                        .sql("select count(*) from sold_out_categories where event_id = :e")
                        .param("e", eventId)
                        .query(Long.class)
                        .single())
                .as("no refused signal changed anything")
                .isZero();

        assertThat(signal(eventId, "sold-out", body, good).status()).isEqualTo(200);
        assertThat(this.scenario
                        .http()
                        .get("/admin/events/" + eventId, "Authorization", "Bearer " + good)
                        .status())
                .as("never a credential of the ops API")
                .isEqualTo(401);
        Http.Response direct = new Http(this.scenario.port())
                .post("/events/" + eventId + "/signals/sold-out", body, "Authorization", "Bearer " + good);
        assertThat(direct.status())
                .as("the coordinator answers only calls through the gateway")
                .isEqualTo(403);

        String id = good.substring(5, 21);
        this.scenario.ops().send("DELETE", "/admin/events/" + eventId + "/integration-credentials/" + id, null);
        Http.Response afterRevoke = signal(eventId, "sold-out", body, good);
        assertThat(afterRevoke.status()).isEqualTo(401);
        assertThat(afterRevoke.header("WWW-Authenticate")).contains("invalid_token");
    }

    @Test
    void purchaseCompletedReleasesTheSessionOnceAndIsIdempotent() {
        String eventId = openEvent("purchase", AfterPurchase.RELEASE);
        String credential = credential(eventId);
        String session = admitOne(eventId);
        String body = "{\"sessionId\":\"" + session + "\",\"orderId\":\"order-1\"}";

        Http.Response done = signal(eventId, "purchase-completed", body, credential);
        assertThat(done.status()).as(done.body()).isEqualTo(200);
        assertThat(done.json().path("state").asString()).isEqualTo("COMPLETED");
        assertThat(done.json().path("live").asBoolean()).isFalse();
        assertThat(done.json().path("sessionId").asString()).isEqualTo(session);
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isZero();

        Http.Response again = signal(eventId, "purchase-completed", body, credential);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json().path("state").asString()).isEqualTo("COMPLETED");
        assertThat(releases(eventId, "PURCHASED")).isEqualTo(1.0);
        assertThat(this.scenario.grants.checkouts(EventId.of(eventId))).isEqualTo(1);
        assertThat(this.jdbc
                        .sql("select last_used_at is not null from integration_credentials where credential_id = :id")
                        .param("id", credential.substring(5, 21))
                        .query(Boolean.class)
                        .single())
                .isTrue();
    }

    @Test
    void underKeepAPurchaseIsRecordedAndTheSessionStaysLive() {
        String eventId = openEvent("keep", AfterPurchase.KEEP);
        String credential = credential(eventId);
        String session = admitOne(eventId);

        Http.Response done = signal(
                eventId,
                "purchase-completed",
                "{\"sessionId\":\"" + session + "\",\"orderId\":\"order-1\"}",
                credential);

        assertThat(done.status()).as(done.body()).isEqualTo(200);
        assertThat(done.json().path("state").asString()).isEqualTo("ACTIVE");
        assertThat(done.json().path("live").asBoolean()).isTrue();
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(1);
        assertThat(this.scenario.grants.checkouts(EventId.of(eventId))).isEqualTo(1);
    }

    @Test
    void manyConcurrentSignalsForOneSessionReturnItsCapacityOnce() throws Exception {
        String eventId = openEvent("burst", AfterPurchase.RELEASE);
        String credential = credential(eventId);
        String session = admitOne(eventId);
        int signals = 24;
        ExecutorService pool = Executors.newFixedThreadPool(signals);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Http.Response>> answers = new ArrayList<>();
            for (int i = 0; i < signals; i++) {
                boolean purchase = i % 3 != 0;
                answers.add(pool.submit(() -> {
                    start.await();
                    return purchase
                            ? signal(
                                    eventId,
                                    "purchase-completed",
                                    "{\"sessionId\":\"" + session + "\",\"orderId\":\"order-1\"}",
                                    credential)
                            : signal(eventId, "session-release", "{\"sessionId\":\"" + session + "\"}", credential);
                }));
            }
            start.countDown();
            Set<String> states = new HashSet<>();
            for (Future<Http.Response> answer : answers) {
                Http.Response response = answer.get();
                assertThat(response.status()).as(response.body()).isEqualTo(200);
                assertThat(response.json().path("live").asBoolean()).isFalse();
                states.add(response.json().path("state").asString());
            }
            assertThat(states).hasSize(1).isSubsetOf("COMPLETED", "RELEASED");
        } finally {
            pool.shutdownNow();
        }
        assertThat(releases(eventId, "PURCHASED") + releases(eventId, "LEFT"))
                .as("exactly one release")
                .isEqualTo(1.0);
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();
    }

    @Test
    void sessionReleaseReturnsTheCapacityAndNamesBadSessions() {
        String eventId = openEvent("release", AfterPurchase.RELEASE);
        String credential = credential(eventId);
        String session = admitOne(eventId);

        Http.Response released = signal(eventId, "session-release", "{\"sessionId\":\"" + session + "\"}", credential);
        assertThat(released.status()).as(released.body()).isEqualTo(200);
        assertThat(released.json().path("state").asString()).isEqualTo("RELEASED");
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();
        assertThat(signal(eventId, "session-release", "{\"sessionId\":\"" + session + "\"}", credential)
                        .json()
                        .path("state")
                        .asString())
                .isEqualTo("RELEASED");
        assertThat(releases(eventId, "LEFT")).isEqualTo(1.0);

        Map<String, String> bad = new LinkedHashMap<>();
        bad.put("{\"sessionId\":\"" + UUID.randomUUID() + "\"}", "/session-not-found");
        bad.put("{\"sessionId\":\"not-a-uuid\"}", "/invalid-session-id");
        bad.put("{\"sessionId\":\"\"}", "/invalid-session-id");
        bad.put("{}", "/invalid-session-id");
        bad.put("{\"sessionId\":", "/malformed-request");
        bad.put("[1,2]", "/malformed-request");
        bad.forEach((body, type) -> {
            Http.Response answer = signal(eventId, "session-release", body, credential);
            assertThat(answer.status()).as(body).isBetween(400, 404);
            assertThat(answer.problemType()).as(body).endsWith(type);
        });
        Http.Response noOrder = signal(
                eventId,
                "purchase-completed",
                "{\"sessionId\":\"" + session + "\",\"orderId\":\"a\\u0000b\"}",
                credential);
        assertThat(noOrder.status()).as(noOrder.body()).isEqualTo(400);
        Http.Response longOrder = signal(
                eventId,
                "purchase-completed",
                "{\"sessionId\":\"" + session + "\",\"orderId\":\"" + "o".repeat(101) + "\"}",
                credential);
        assertThat(longOrder.status()).isEqualTo(400);
        Http.Response oversized = signal(
                eventId,
                "purchase-completed",
                "{\"sessionId\":\"" + session + "\",\"orderId\":\"" + "o".repeat(20_000) + "\"}",
                credential);
        assertThat(oversized.status()).isEqualTo(413);
        assertThat(oversized.problemType()).endsWith("/body-too-large");
    }

    @Test
    void soldOutMarksACategoryOrTheWholeEventIdempotently() {
        String eventId = openEvent("soldout", AfterPurchase.RELEASE);
        String credential = credential(eventId);

        Http.Response floor = signal(eventId, "sold-out", "{\"category\":\"Floor\"}", credential);
        assertThat(floor.status()).as(floor.body()).isEqualTo(200);
        assertThat(floor.json().path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(floor.json().path("soldOutCategories").toString()).isEqualTo("[\"Floor\"]");
        assertThat(this.scenario.queue.lastState(eventId).soldOutCategoriesValue())
                .as("pushed to the page at once")
                .containsExactly("Floor");
        assertThat(signal(eventId, "sold-out", "{\"category\":\"Balcony\"}", credential)
                        .json()
                        .path("soldOutCategories")
                        .toString())
                .isEqualTo("[\"Floor\",\"Balcony\"]");
        assertThat(signal(eventId, "sold-out", "{\"category\":\"Floor\"}", credential)
                        .json()
                        .path("soldOutCategories")
                        .toString())
                .isEqualTo("[\"Floor\",\"Balcony\"]");
        Http.Response badName = signal(eventId, "sold-out", "{\"category\":\"<script>\"}", credential);
        assertThat(badName.status()).isEqualTo(400);

        Http.Response all = signal(eventId, "sold-out", "{}", credential);
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().path("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(this.scenario.management.get(EventId.of(eventId)).mode().name())
                .isEqualTo("SOLD_OUT");
        Http.Response again = signal(eventId, "sold-out", null, credential);
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json().path("mode").asString()).isEqualTo("SOLD_OUT");
    }
}
