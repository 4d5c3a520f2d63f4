package dev.waitroom.coordinator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.BodyFuzzer;
import dev.waitroom.testsupport.MvcRoutes;
import dev.waitroom.testsupport.MvcRoutes.Route;
import dev.waitroom.testsupport.RouteFuzz;
import dev.waitroom.testsupport.UnchangedState;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.WebKitProperties;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiPredicate;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerMapping;

/**
 * Bad input never costs a 5xx (docs/design/security/input.md): every route of the coordinator, read from its request
 * mappings, gets the seeded malformed bodies and path variables of {@link BodyFuzzer}, with every credential it needs
 * so the body is really read. Each answer is below 500, each 4xx a problem with a type, and nothing in PostgreSQL or
 * Redis changes. Repeat a run with {@code -Dfuzz.seed=<the printed seed>}.
 */
@CoordinatorTest
class MalformedRequestFuzzTests {

    /** The coordinator's body limit (the web kit's default). */
    static final int MAX_BODY = 16 * 1024;

    /**
     * A valid body of every route that reads one (the fuzzer spoils one part at a time). A route missing here is still
     * fuzzed, with whole-body faults only, and named in the output.
     */
    static final Map<String, Map<String, Object>> SAMPLES = new TreeMap<>();

    static {
        Map<String, Object> create = new LinkedHashMap<>();
        create.put("eventId", "fuzz-never-created");
        create.put("name", "Summer concert");
        create.put("opensAt", "2030-01-01T10:00:00Z");
        create.put("maxActiveSessions", 4);
        create.put("maxAdmissionsPerSecond", 2.5);
        create.put("batchMax", 3);
        create.put("offerTtlSeconds", 30);
        create.put("sessionTtlSeconds", 300);
        create.put("sessionMaxSeconds", 900);
        create.put("presaleOrdering", "RANDOM");
        create.put("identityScope", "BROWSER");
        create.put("expiredOfferPolicy", "REQUEUE_ONCE");
        create.put("afterPurchase", "RELEASE");
        SAMPLES.put("POST /admin/events", create);
        Map<String, Object> patch = new LinkedHashMap<>(create);
        patch.remove("eventId");
        patch.put("name", "Winter concert");
        patch.put("maxActiveSessions", 5);
        SAMPLES.put("PATCH /admin/events/{eventId}", patch);
        for (String action : List.of("open", "end", "pause", "resume", "sold-out", "bypass", "publish", "archive")) {
            SAMPLES.put("POST /admin/events/{eventId}/" + action, Map.of("reason", "doors open at seven"));
        }
        SAMPLES.put("DELETE /admin/events/{eventId}/bypass", Map.of("reason", "back to the queue"));
        SAMPLES.put("DELETE /admin/events/{eventId}", Map.of("reason", "typo in the id"));
        SAMPLES.put("PUT /admin/events/{eventId}/announcement", Map.of("text", "Doors open at seven"));
        SAMPLES.put("POST /internal/events/{eventId}/sold-out", Map.of("reason", "no seat left"));
        SAMPLES.put(
                "PUT /internal/events/{eventId}/categories",
                Map.of(
                        "categories",
                        List.of(Map.of("name", "Floor", "available", 0), Map.of("name", "Balcony", "available", 12))));
        SAMPLES.put(
                "POST /internal/events/{eventId}/sessions/{sessionId}/purchase-completed",
                Map.of("orderId", "8a6e0804-2bd0-4672-b79f-d97e8ca55f5f"));
        Map<String, Object> health = new LinkedHashMap<>();
        health.put("at", "2030-01-01T10:00:00Z");
        health.put("windowSeconds", 1);
        health.put("requests", 10);
        health.put("latencyP95Ms", 12.5);
        health.put("latencyP99Ms", 20.0);
        health.put("errorRate", 0.01);
        health.put("poolActive", 2);
        health.put("poolPending", 0);
        health.put("poolMax", 10);
        health.put("holdFailureRate", 0.0);
        SAMPLES.put("POST /internal/health", health);
        SAMPLES.put("POST /admin/events/{eventId}/integration-credentials", Map.of("label", "box office"));
        // every field of a page is optional: without a sample, a body's only field would be one the route ignores
        Map<String, Object> page = new LinkedHashMap<>();
        page.put("brandName", "Tour Co");
        page.put("logoAlt", "Tour Co");
        page.put("colours", Map.of("accent", "#004d40", "bg", "#fffdf7"));
        page.put("texts", Map.of("en", Map.of("page.lead", "Keep this page open.")));
        page.put("reason", "brand for the tour");
        SAMPLES.put("PUT /admin/events/{eventId}/page", page);
        String session = "8a6e0804-2bd0-4672-b79f-d97e8ca55f5f";
        SAMPLES.put(
                "POST /events/{eventId}/signals/purchase-completed",
                Map.of("sessionId", session, "orderId", "order-1"));
        SAMPLES.put("POST /events/{eventId}/signals/session-release", Map.of("sessionId", session));
        SAMPLES.put("POST /events/{eventId}/signals/sold-out", Map.of("category", "Floor"));
    }

    /**
     * Cases a route accepts by its documented contract, so they may answer 2xx and change what they change: booking's
     * sold-out reason is cut to 500 characters, not refused (contract {@code SoldOut}).
     */
    static final Set<String> ACCEPTED_BY_CONTRACT =
            Set.of("POST /internal/events/{eventId}/sold-out reason: long string");

    private static final String REDIS_KEYS = "redis keys";

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RedissonClient redis;

    @Autowired
    @Qualifier("requestMappingHandlerMapping")
    RequestMappingHandlerMapping mappings;

    String eventId;

    String liveEvent;

    String liveSession;

    /** The integration credential of {@link #eventId}, for the shop signals. */
    String integrationCredential;

    @BeforeEach
    void createTheEventTheRoutesName() {
        this.eventId = Scenario.eventId("fuzz");
        Map<String, Object> body = new LinkedHashMap<>(SAMPLES.get("POST /admin/events"));
        body.put("eventId", this.eventId);
        Http.Response created = this.scenario.ops().post("/admin/events", Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        Http.Response credential =
                this.scenario.ops().post("/admin/events/" + this.eventId + "/integration-credentials", null);
        assertThat(credential.status()).as(credential.body()).isEqualTo(201);
        this.integrationCredential = credential.json().path("secret").asString();
    }

    /** An open event with one claimed, live shopping session: booking's purchase signal names it. */
    private void aLiveSession() {
        this.liveEvent = Scenario.eventId("fuzz-live");
        this.scenario.openEvent(
                this.liveEvent,
                Scenario.config(5, 1000, 100, 30, 120, 300, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        String visitor = this.scenario.join(this.liveEvent, 1).get(0);
        this.scenario.tickUntilLive(this.liveEvent, 1);
        Http.Response claimed = this.scenario
                .http()
                .post("/events/" + this.liveEvent + "/admission/claim", null, Headers.VISITOR, visitor);
        assertThat(claimed.status()).as(claimed.body()).isEqualTo(200);
        this.liveSession = claimed.json().path("sessionId").asString();
    }

    @Test
    void malformedBodiesAndPathsOnEveryRouteAreRefusedWithAProblemAndChangeNothing() {
        aLiveSession();
        BodyFuzzer fuzzer = BodyFuzzer.seeded("admission-coordinator", MAX_BODY);
        List<Route> routes = MvcRoutes.of(this.mappings);
        assertThat(routes)
                .as("the routes read from the request mappings")
                .extracting(Route::key)
                .contains("POST /admin/events", "POST /events/{eventId}/admission/claim", "POST /internal/health");
        UnchangedState<Map<String, String>> unchanged =
                new UnchangedState<>(this::fingerprint, MalformedRequestFuzzTests::changed);
        BiPredicate<Route, BodyFuzzer.Case> accepted =
                (route, c) -> ACCEPTED_BY_CONTRACT.contains(route.key() + " " + c.name());
        RouteFuzz.Routes service = new RouteFuzz.Routes(
                "admission-coordinator",
                "http://127.0.0.1:" + scenario.port(),
                SAMPLES,
                this::valueOf,
                (route, path, c) -> credentials(route),
                accepted,
                accepted);
        List<String> faults = RouteFuzz.faults(fuzzer, routes, service, unchanged);
        assertThat(faults).as(fuzzer.report(faults)).isEmpty();
    }

    @Test
    void textWithControlCharactersIsRefusedBeforeItReachesTheDatabase() {
        Http ops = this.scenario.ops();
        Map<String, String> before = fingerprint();
        Map<String, Object> create = new LinkedHashMap<>(SAMPLES.get("POST /admin/events"));
        create.put("eventId", Scenario.eventId("nul"));
        create.put("name", "Summer\u0000concert");
        assertProblem(ops.post("/admin/events", Http.json(create)), 400, "invalid-event-config");
        create.put("name", "x".repeat(201));
        assertProblem(ops.post("/admin/events", Http.json(create)), 400, "invalid-event-config");
        String event = "/admin/events/" + this.eventId;
        assertProblem(ops.send("PATCH", event, "{\"name\":\"Winter\\u202Econcert\"}"), 400, "invalid-event-config");
        assertProblem(ops.post(event + "/pause", "{\"reason\":\"why\\u0000\"}"), 400, "malformed-request");
        assertProblem(ops.post(event + "/open", "{\"reason\":\"line\\nbreak\"}"), 400, "malformed-request");
        assertProblem(
                ops.send("PUT", event + "/announcement", "{\"text\":\"\\u001b[31mred\"}"), 400, "invalid-announcement");
        assertProblem(
                this.scenario
                        .http()
                        .post("/internal/events/" + this.eventId + "/sold-out", "{\"reason\":\"a\\ud800\"}"),
                400,
                "malformed-request");
        assertThat(fingerprint()).isEqualTo(before);
        Http.Response fine = ops.send("PUT", event + "/announcement", "{\"text\":\"Caf\u00e9 \uD83C\uDFB8 at seven\"}");
        assertThat(fine.status()).as(fine.body()).isEqualTo(200);
        assertThat(fine.json().path("announcement").asString()).isEqualTo("Caf\u00e9 \uD83C\uDFB8 at seven");
    }

    private static void assertProblem(Http.Response response, int status, String slug) {
        assertThat(response.status()).as(response.body()).isEqualTo(status);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.problemType()).isEqualTo("https://waitroom.dev/problems/" + slug);
    }

    /**
     * Every credential a route might ask for, so that the body is what decides: internal, ops (or, on a shop signal,
     * the event's integration credential), a visitor.
     */
    private String[] credentials(Route route) {
        WebKitProperties.Security security = this.scenario.security();
        String bearer = route.pattern().contains("/signals/") ? this.integrationCredential : security.opsToken();
        return new String[] {
            Headers.INTERNAL, RandomSecretsInitializer.credentialFor(route.method(), route.pattern()),
            Headers.AUTHORIZATION, Headers.BEARER_PREFIX + bearer,
            Headers.VISITOR, VisitorId.random().value()
        };
    }

    /** The event, or the live one with its session where a route names a session. */
    private String valueOf(Route route, String variable) {
        boolean session = route.variables().contains("sessionId");
        return switch (variable) {
            case "eventId" -> session ? this.liveEvent : this.eventId;
            case "sessionId" -> this.liveSession;
            default -> "fuzz-1";
        };
    }

    /** Every table's rows (a digest each) and the number of Redis keys. */
    private Map<String, String> fingerprint() {
        Map<String, String> state = new TreeMap<>();
        List<String> tables = this.jdbc
                .sql("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
                        + " AND table_type = 'BASE TABLE' AND table_name NOT LIKE 'flyway%'")
                .query(String.class)
                .list();
        for (String table : tables) {
            state.put(
                    table,
                    this.jdbc
                            .sql(
                                    "SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '')"
                                            + " FROM \"" + table + "\" t")
                            .query(String.class)
                            .single());
        }
        // Key names, not a count: sessions and their tombstones expire by themselves (more of them between two
        // fingerprints when the machine is loaded), so only a key that appeared is a change a request made.
        Set<String> keys = new TreeSet<>();
        this.redis.getKeys().getKeys().forEach(keys::add);
        state.put(REDIS_KEYS, String.join("\n", keys));
        return state;
    }

    private static String changed(Map<String, String> before, Map<String, String> after) {
        List<String> names = UnchangedState.changedParts(before, after);
        if (names.remove(REDIS_KEYS)) {
            Set<String> appeared = new TreeSet<>(List.of(after.get(REDIS_KEYS).split("\n")));
            appeared.removeAll(List.of(before.get(REDIS_KEYS).split("\n")));
            appeared.remove("");
            if (!appeared.isEmpty()) {
                names.add(REDIS_KEYS + " " + appeared);
            }
        }
        return String.join(", ", names);
    }
}
