package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import tools.jackson.databind.JsonNode;

@CoordinatorTest
class OpsApiTests {

    @Autowired
    Scenario scenario;

    @Autowired
    SigningKeys keys;

    @LocalManagementPort
    int managementPort;

    Http ops;

    String eventId;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
        this.eventId = Scenario.eventId("ops");
    }

    private Map<String, Object> createBody(String id) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Summer concert");
        body.put("opensAt", null);
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 100);
        body.put("offerTtlSeconds", 30);
        body.put("sessionTtlSeconds", 300);
        body.put("sessionMaxSeconds", 900);
        body.put("presaleOrdering", "RANDOM");
        body.put("identityScope", "BROWSER");
        body.put("expiredOfferPolicy", "REQUEUE_ONCE");
        body.put("afterPurchase", "RELEASE");
        return body;
    }

    private JsonNode create() {
        Http.Response created = this.ops.post("/admin/events", Http.json(createBody(this.eventId)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created.json();
    }

    private String path(String suffix) {
        return "/admin/events/" + this.eventId + suffix;
    }

    @Test
    void createReadAndPatchAnEvent() {
        JsonNode created = create();
        assertThat(created.path("phase").asString()).isEqualTo("SCHEDULED");
        assertThat(created.path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(created.path("commitment").asString()).hasSize(64);
        assertThat(created.path("seed").isNull())
                .as("the seed stays secret before the draw")
                .isTrue();
        assertThat(this.scenario.queue.lastState(this.eventId).commitment())
                .isEqualTo(created.path("commitment").asString());

        Http.Response patched = this.ops.send("PATCH", path(""), "{\"maxActiveSessions\":9,\"batchMax\":3}");
        assertThat(patched.status()).isEqualTo(200);
        assertThat(patched.json().path("maxActiveSessions").asInt()).isEqualTo(9);
        assertThat(patched.json().path("offerTtlSeconds").asInt()).isEqualTo(30);

        JsonNode view = this.ops.get(path("")).json();
        for (String field : new String[] {
            "waiting", "offered", "active", "admissionRate", "health", "mode", "phase", "oldestWaitSeconds", "drift"
        }) {
            assertThat(view.has(field)).as(field).isTrue();
        }
        assertThat(view.path("offered").asLong()).isZero();
        assertThat(view.path("drift").asLong()).isZero();
        // The queue's own counts, so a load test can account for every visitor who joined.
        for (String field : new String[] {"waiting", "offered", "active", "completed", "left", "expired", "joins"}) {
            assertThat(view.path("live").path("queue").has(field))
                    .as("queue." + field)
                    .isTrue();
        }
    }

    @Test
    void openRunsTheDrawOnceAndRevealsTheSeed() {
        String commitment = create().path("commitment").asString();
        this.scenario.join(this.eventId, 5);

        JsonNode opened =
                this.ops.post(path("/open"), "{\"reason\":\"doors open\"}").json();
        JsonNode again = this.ops.post(path("/open"), "{\"reason\":\"twice\"}").json();

        assertThat(opened.path("phase").asString()).isEqualTo("OPEN");
        String seed = opened.path("seed").asString();
        assertThat(EventManagement.commitment(seed)).isEqualTo(commitment);
        assertThat(again.path("seed").asString()).isEqualTo(seed);
        assertThat(this.scenario.queue.drawn(this.eventId)).isTrue();
        assertThat(this.scenario.queue.lastState(this.eventId).seed()).isEqualTo(seed);
        assertThat(this.scenario.management.get(dev.waitroom.contract.EventId.of(this.eventId)))
                .satisfies(e -> assertThat(e.phase().name()).isEqualTo("OPEN"));
    }

    @Test
    void anEventWhoseOpeningTimeHasComeOpensOnTheTicker() {
        Map<String, Object> body = createBody(this.eventId);
        body.put("opensAt", this.scenario.now().plusSeconds(60).toString());
        assertThat(this.ops.post("/admin/events", Http.json(body)).status()).isEqualTo(201);

        this.scenario.tick(this.eventId, Duration.ofSeconds(1));
        assertThat(this.ops.get(path("")).json().path("phase").asString()).isEqualTo("SCHEDULED");
        this.scenario.tick(this.eventId, Duration.ofSeconds(60));
        assertThat(this.ops.get(path("")).json().path("phase").asString()).isEqualTo("OPEN");
    }

    @Test
    void endingASaleStopsOffersIsAuditedAndCannotBeRepeated() {
        create();
        this.ops.post(path("/open"), null);
        this.scenario.join(this.eventId, 10);
        this.scenario.tickUntilLive(this.eventId, 2);
        long before = this.scenario.grants.count(EventId.of(this.eventId)).offered()
                + this.scenario.grants.count(EventId.of(this.eventId)).active();

        Http.Response ended = this.ops.post(path("/end"), "{\"reason\":\"show cancelled\"}");
        assertThat(ended.status()).as(ended.body()).isEqualTo(200);
        assertThat(ended.json().path("phase").asString()).isEqualTo("ENDED");
        assertThat(this.scenario.queue.lastState(this.eventId).phase()).isEqualTo("ENDED");
        for (int i = 0; i < 3; i++) {
            assertThat(this.scenario.tick(this.eventId, Duration.ofSeconds(1)))
                    .as("no offer after the end")
                    .isZero();
        }
        assertThat(this.scenario.grants.count(EventId.of(this.eventId)).offered()
                        + this.scenario.grants.count(EventId.of(this.eventId)).active())
                .isLessThanOrEqualTo(before);

        Http.Response again = this.ops.post(path("/end"), "{\"reason\":\"twice\"}");
        assertThat(again.status()).isEqualTo(409);
        assertThat(again.problemType()).endsWith("/invalid-transition");
        assertThat(this.ops.post(path("/open"), null).status())
                .as("an ended sale does not reopen")
                .isEqualTo(409);
        assertThat(this.ops
                        .get(path(""))
                        .json()
                        .path("live")
                        .path("modeChanges")
                        .toString())
                .contains("show cancelled", "\"to\":\"ENDED\"");
    }

    @Test
    void modeChangesNeedAReasonAreAuditedAndPauseStopsOffers() {
        create();
        this.ops.post(path("/open"), null);
        this.scenario.join(this.eventId, 10);

        assertThat(this.ops.post(path("/pause"), "{}").status()).isEqualTo(400);
        assertThat(this.ops
                        .post(path("/pause"), "{\"reason\":\"payment provider incident\"}")
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("PAUSED");
        assertThat(this.scenario.queue.lastState(this.eventId).mode()).isEqualTo("PAUSED");
        for (int i = 0; i < 3; i++) {
            assertThat(this.scenario.tick(this.eventId, Duration.ofSeconds(1))).isZero();
        }
        assertThat(this.ops
                        .post(path("/resume"), "{\"reason\":\"resolved\"}")
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("QUEUEING");
        assertThat(this.scenario.tickUntilLive(this.eventId, 4).live()).isEqualTo(4);

        assertThat(this.ops
                        .post(path("/bypass"), "{\"reason\":\"load test\"}")
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("BYPASS");
        assertThat(this.ops
                        .send("DELETE", path("/bypass"), "{\"reason\":\"done\"}")
                        .json()
                        .path("mode")
                        .asString())
                .isEqualTo("QUEUEING");
        Http.Response soldOut = this.scenario
                .http()
                .post("/internal/events/" + this.eventId + "/sold-out", "{\"reason\":\"no seats left\"}");
        assertThat(soldOut.json().path("mode").asString()).isEqualTo("SOLD_OUT");
        Http.Response invalid = this.ops.post(path("/pause"), "{\"reason\":\"too late\"}");
        assertThat(invalid.status()).isEqualTo(409);
        assertThat(invalid.problemType()).endsWith("/invalid-transition");

        JsonNode changes = this.ops.get(path("")).json().path("live").path("modeChanges");
        assertThat(changes.toString())
                .contains(
                        "payment provider incident",
                        "resolved",
                        "load test",
                        "no seats left",
                        "\"actor\":\"booking\"",
                        "\"actor\":\"ops\"",
                        "\"to\":\"BYPASS\"");
    }

    @Test
    void announcementIsSetAndCleared() {
        create();
        assertThat(this.ops
                        .send("PUT", path("/announcement"), "{\"text\":\"Category A sold out\"}")
                        .json()
                        .path("announcement")
                        .asString())
                .isEqualTo("Category A sold out");
        assertThat(this.scenario.queue.lastState(this.eventId).announcement()).isEqualTo("Category A sold out");
        assertThat(this.ops
                        .send("PUT", path("/announcement"), "{\"text\":\"\"}")
                        .json()
                        .path("announcement")
                        .asString())
                .isEmpty();
        assertThat(this.ops
                        .send("PUT", path("/announcement"), Http.json(Map.of("text", "x".repeat(501))))
                        .status())
                .isEqualTo(400);
    }

    @Test
    void theJoinGateIsOffByDefaultSetAtCreationPatchedAndPushedToTheQueue() {
        JsonNode plain = create();
        assertThat(plain.path("maxJoinsPerSecond").asDouble()).isZero();
        assertThat(plain.path("proofOfWorkDifficulty").asLong()).isZero();
        assertThat(this.scenario.queue.lastState(this.eventId).joinGateValue()).isEqualTo(JoinGate.OPEN);

        String gated = Scenario.eventId("gated");
        Map<String, Object> body = createBody(gated);
        body.put("maxJoinsPerSecond", 250.5);
        body.put("proofOfWorkDifficulty", 50_000);
        Http.Response created = this.ops.post("/admin/events", Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("maxJoinsPerSecond").asDouble()).isEqualTo(250.5);
        assertThat(created.json().path("proofOfWorkDifficulty").asLong()).isEqualTo(50_000);
        assertThat(this.scenario.queue.lastState(gated).joinGateValue()).isEqualTo(new JoinGate(250.5, 50_000));

        // a patch of one field keeps the other, and of an unrelated field keeps both
        Http.Response patched = this.ops.send("PATCH", "/admin/events/" + gated, "{\"maxJoinsPerSecond\":40}");
        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        assertThat(this.scenario.queue.lastState(gated).joinGateValue()).isEqualTo(new JoinGate(40, 50_000));
        this.ops.send("PATCH", "/admin/events/" + gated, "{\"maxActiveSessions\":7}");
        JsonNode read = this.ops.get("/admin/events/" + gated).json();
        assertThat(read.path("maxJoinsPerSecond").asDouble()).isEqualTo(40);
        assertThat(read.path("proofOfWorkDifficulty").asLong()).isEqualTo(50_000);
        assertThat(this.scenario.queue.lastState(gated).joinGateValue()).isEqualTo(new JoinGate(40, 50_000));

        // 0 switches both off again
        this.ops.send("PATCH", "/admin/events/" + gated, "{\"maxJoinsPerSecond\":0,\"proofOfWorkDifficulty\":0}");
        assertThat(this.scenario.queue.lastState(gated).joinGateValue()).isEqualTo(JoinGate.OPEN);
    }

    @Test
    void aJoinGateOutOfRangeIsAnInvalidEventConfigNamingTheFieldAndChangesNothing() {
        create();
        Map<String, Object> bad = new LinkedHashMap<>();
        bad.put("negative ceiling", Map.of("maxJoinsPerSecond", -1));
        bad.put("NaN ceiling", Map.of("maxJoinsPerSecond", "NaN"));
        bad.put("infinite ceiling", Map.of("maxJoinsPerSecond", "Infinity"));
        bad.put("ceiling too large", Map.of("maxJoinsPerSecond", 1_000_001));
        bad.put("negative difficulty", Map.of("proofOfWorkDifficulty", -5));
        bad.put("difficulty too large", Map.of("proofOfWorkDifficulty", 10_000_001));
        bad.forEach((what, fields) -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> f = (Map<String, Object>) fields;
            String field = f.keySet().iterator().next();
            for (Http.Response r : new Http.Response[] {
                this.ops.send("PATCH", path(""), Http.json(f)),
                this.ops.post(
                        "/admin/events", Http.json(withField(createBody(Scenario.eventId("bad")), field, f.get(field))))
            }) {
                assertThat(r.status()).as(what + ": " + r.body()).isEqualTo(400);
                assertThat(r.contentType()).as(what).startsWith("application/problem+json");
                assertThat(r.problemType()).as(what).endsWith("/invalid-event-config");
                assertThat(r.json().path("detail").asString()).as(what).contains(field);
            }
        });
        for (String notANumber : new String[] {"\"lots\"", "true", "[1]"}) {
            Http.Response r = this.ops.send("PATCH", path(""), "{\"maxJoinsPerSecond\":" + notANumber + "}");
            assertThat(r.status()).as(notANumber).isEqualTo(400);
            assertThat(r.contentType()).as(notANumber).startsWith("application/problem+json");
        }
        JsonNode unchanged = this.ops.get(path("")).json();
        assertThat(unchanged.path("maxJoinsPerSecond").asDouble()).isZero();
        assertThat(unchanged.path("proofOfWorkDifficulty").asLong()).isZero();
    }

    @Test
    void theOpsApiNeedsTheOpsTokenAndEveryErrorIsAProblem() {
        create();
        Http internalOnly = this.scenario.http();
        Map<String, Http.Response> answers = new LinkedHashMap<>();
        answers.put("no ops token", internalOnly.get(path("")));
        answers.put(
                "wrong ops token", internalOnly.get(path(""), Headers.AUTHORIZATION, Headers.BEARER_PREFIX + "nope"));
        answers.put(
                "no internal credential",
                new Http(this.scenario.port())
                        .get(
                                path(""),
                                Headers.AUTHORIZATION,
                                Headers.BEARER_PREFIX + this.scenario.security().opsToken()));
        answers.put("duplicate", this.ops.post("/admin/events", Http.json(createBody(this.eventId))));
        answers.put("malformed json", this.ops.post("/admin/events", "{\"eventId\":"));
        answers.put(
                "unknown enum",
                this.ops.post(
                        "/admin/events",
                        Http.json(withField(createBody(Scenario.eventId("x")), "expiredOfferPolicy", "SOMETIMES"))));
        answers.put(
                "ceiling zero",
                this.ops.post(
                        "/admin/events",
                        Http.json(withField(createBody(Scenario.eventId("x")), "maxActiveSessions", 0))));
        answers.put(
                "bad event id",
                this.ops.post(
                        "/admin/events", Http.json(withField(createBody("has spaces"), "eventId", "has spaces"))));
        answers.put(
                "warm-up event id",
                this.ops.post(
                        "/admin/events",
                        Http.json(withField(
                                createBody(Scenario.eventId("x")), "eventId", EventId.WARM_UP_PREFIX + "0123abcd"))));
        answers.put("unknown event", this.ops.get("/admin/events/missing-event"));
        answers.put("unknown route", this.ops.get("/admin/nothing-here"));
        answers.put("oversized", this.ops.post("/admin/events", "{\"name\":\"" + "x".repeat(20_000) + "\"}"));
        answers.put("oversized chunked", chunked(path("/announcement"), "{\"text\":\"" + "x".repeat(40_000) + "\"}"));

        assertThat(answers.get("no ops token").status()).isEqualTo(401);
        assertThat(answers.get("wrong ops token").status()).isEqualTo(401);
        assertThat(answers.get("no internal credential").status()).isEqualTo(403);
        assertThat(answers.get("duplicate").status()).isEqualTo(409);
        assertThat(answers.get("duplicate").problemType()).endsWith("/event-exists");
        assertThat(answers.get("malformed json").status()).isEqualTo(400);
        assertThat(answers.get("unknown enum").status()).isEqualTo(400);
        assertThat(answers.get("ceiling zero").problemType()).endsWith("/invalid-event-config");
        assertThat(answers.get("bad event id").problemType()).endsWith("/invalid-event-id");
        assertThat(answers.get("warm-up event id").status()).isEqualTo(400);
        assertThat(answers.get("warm-up event id").problemType()).endsWith("/invalid-event-id");
        assertThat(answers.get("unknown event").status()).isEqualTo(404);
        assertThat(answers.get("unknown route").status()).isEqualTo(404);
        assertThat(answers.get("oversized").status()).isEqualTo(413);
        assertThat(answers.get("oversized chunked").status()).isEqualTo(413);
        assertThat(answers.get("malformed json").problemType()).endsWith("/malformed-request");
        answers.forEach((what, r) -> {
            assertThat(r.contentType()).as(what).startsWith("application/problem+json");
            assertThat(r.problemType()).as(what).startsWith("https://waitroom.dev/problems/");
        });
        assertThat(this.ops.get(path("")).json().path("maxActiveSessions").asInt())
                .isEqualTo(4);
    }

    @Test
    void keyRotationPublishesBeforeSigningAndJwksIsPublic() {
        Http anonymous = new Http(this.scenario.port());
        JsonNode before = anonymous.get("/.well-known/jwks.json").json();
        String activeBefore = this.keys.ring().activeKeyId();

        Http.Response rotated = this.ops.post("/admin/keys/rotate", null);
        assertThat(rotated.status()).isEqualTo(202);
        JsonNode published = anonymous.get("/.well-known/jwks.json").json();
        assertThat(published.path("keys").size()).isEqualTo(before.path("keys").size() + 1);
        assertThat(this.keys.ring().activeKeyId())
                .as("a NEXT key does not sign yet")
                .isEqualTo(activeBefore);

        this.keys.advance();
        assertThat(this.keys.ring().activeKeyId()).isNotEqualTo(activeBefore);
        assertThat(anonymous.get("/.well-known/jwks.json").body()).contains(activeBefore);
        assertThat(anonymous.get("/.well-known/jwks.json").body()).doesNotContain("\"d\"");
    }

    @Test
    void bookingHealthReportsAreValidated() {
        Http internal = this.scenario.http();
        String good = "{\"at\":\"" + this.scenario.now() + "\",\"windowSeconds\":1,\"requests\":50,\"latencyP95Ms\":40,"
                + "\"latencyP99Ms\":80,\"errorRate\":0,\"poolActive\":2,\"poolPending\":0,\"poolMax\":20,\"holdFailureRate\":0}";
        assertThat(internal.post("/internal/health", good).status()).isEqualTo(204);
        Http.Response bad = internal.post("/internal/health", good.replace("\"errorRate\":0", "\"errorRate\":2"));
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.problemType()).endsWith("/invalid-health-report");
    }

    @Test
    void metricsArePublishedForPrometheus() {
        create();
        this.ops.post(path("/open"), null);
        this.scenario.join(this.eventId, 3);
        this.scenario.tickUntilLive(this.eventId, 3);
        assertThat(new Http(this.scenario.port()).get("/actuator/prometheus").status())
                .as("metrics are on the management port only")
                .isEqualTo(404);
        String metrics =
                new Http(this.managementPort).get("/actuator/prometheus").body();
        String tagged = "{application=\"admission-coordinator\",event=\"" + this.eventId + "\"";
        assertThat(metrics)
                .contains(
                        "waitroom_coordinator_offers_total" + tagged,
                        "waitroom_coordinator_offered" + tagged,
                        "waitroom_coordinator_rate_factor",
                        "waitroom_coordinator_mode" + tagged + ",mode=\"QUEUEING\"} 1.0",
                        "waitroom_coordinator_admission_rate" + tagged,
                        "waitroom_coordinator_ceiling" + tagged + "} 4.0");
        for (String reason : List.of(
                "paused",
                "sold-out",
                "old-generation",
                "session-ended",
                "no-offer",
                "offer-claimed",
                "offer-expired")) {
            assertThat(metrics)
                    .as("every claim failure reason has a series from the first offer on")
                    .contains("waitroom_coordinator_claim_failures_total" + tagged + ",reason=\"" + reason + "\"} 0.0");
        }
        assertThat(metrics.lines().filter(line -> !line.startsWith("#") && !line.isBlank()))
                .as("every series carries the application tag")
                .allSatisfy(line -> assertThat(line).contains("application=\"admission-coordinator\""));
    }

    @Test
    void aCeilingChangeReachesItsGauge() {
        create();
        this.ops.post(path("/open"), null);
        this.scenario.join(this.eventId, 2);
        this.scenario.tickUntilLive(this.eventId, 2);
        assertThat(this.ops.send("PATCH", path(""), "{\"maxActiveSessions\":9}").status())
                .isEqualTo(200);
        this.scenario.tick(this.eventId, java.time.Duration.ofSeconds(1));
        assertThat(new Http(this.managementPort).get("/actuator/prometheus").body())
                .contains("waitroom_coordinator_ceiling{application=\"admission-coordinator\",event=\"" + this.eventId
                        + "\"} 9.0");
    }

    /** A PUT whose body has no Content-Length (chunked transfer encoding). */
    private Http.Response chunked(String path, String body) {
        try {
            java.net.http.HttpRequest request = java.net.http.HttpRequest.newBuilder(
                            java.net.URI.create("http://127.0.0.1:" + this.scenario.port() + path))
                    .header(Headers.INTERNAL, RandomSecretsInitializer.GATEWAY.credential())
                    .header(
                            Headers.AUTHORIZATION,
                            Headers.BEARER_PREFIX + this.scenario.security().opsToken())
                    .header("Content-Type", "application/json")
                    .PUT(java.net.http.HttpRequest.BodyPublishers.ofInputStream(() ->
                            new java.io.ByteArrayInputStream(body.getBytes(java.nio.charset.StandardCharsets.UTF_8))))
                    .build();
            java.net.http.HttpResponse<String> r = java.net.http.HttpClient.newHttpClient()
                    .send(request, java.net.http.HttpResponse.BodyHandlers.ofString());
            return new Http.Response(r.statusCode(), r.headers().map(), r.body());
        } catch (java.io.IOException | InterruptedException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static Map<String, Object> withField(Map<String, Object> body, String field, Object value) {
        body.put(field, value);
        return body;
    }
}
