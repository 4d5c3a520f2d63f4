package dev.waitroom.coordinator.routes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Issue 27, item 1, over the ops API's real HTTP, PostgreSQL and Redis: an event names what it protects at creation and
 * by PATCH, the route table the gateways read follows at once, and bad routes are refused with a problem naming the
 * conflict.
 */
@CoordinatorTest
class ProtectedRoutesTests {

    @Autowired
    Scenario scenario;

    @Autowired
    RedissonClient redisson;

    Http ops;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
    }

    private static Map<String, Object> protect(String origin, String... paths) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("origin", origin);
        p.put("paths", List.of(paths));
        return p;
    }

    private Http.Response create(String id, Map<String, Object> protect) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Protected " + id);
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        if (protect != null) {
            body.put("protect", protect);
        }
        return this.ops.post("/admin/events", Http.json(body));
    }

    private Http.Response patch(String id, Map<String, Object> protect) {
        return this.ops.send("PATCH", "/admin/events/" + id, Http.json(Map.of("protect", protect)));
    }

    private RouteTable table() {
        String text = this.redisson
                .<String>getBucket(RedisKeys.ROUTES, StringCodec.INSTANCE)
                .get();
        return RouteTable.decode(text);
    }

    @Test
    void createdProtectionIsStoredShownAndInTheGatewaysTable() {
        String id = Scenario.eventId("routes");
        Http.Response created = create(id, protect("https://Shop.Example:8443", "/c/" + id + "/**", "/checkout/" + id));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("protect").path("origin").asString()).isEqualTo("https://shop.example:8443");

        Http.Response read = this.ops.get("/admin/events/" + id);
        assertThat(read.json().path("protect").path("paths").values())
                .extracting(n -> n.asString())
                .containsExactly("/c/" + id + "/**", "/checkout/" + id);

        RouteTable table = table();
        RouteTable.Entry deep = table.match("/c/" + id + "/seats/12");
        assertThat(deep).isNotNull();
        assertThat(deep.eventId()).isEqualTo(EventId.of(id));
        assertThat(deep.origin()).hasToString("https://shop.example:8443");
        assertThat(table.match("/checkout/" + id + "/more")).isNull();
        assertThat(table.match("/c/" + id + "x")).isNull();
    }

    @Test
    void patchMovesTheRouteAndTheTableFollows() {
        String id = Scenario.eventId("routes");
        assertThat(create(id, protect("http://127.0.0.1:18001", "/old/" + id + "/**"))
                        .status())
                .isEqualTo(201);

        Http.Response moved = patch(id, protect("http://127.0.0.1:18002", "/new/" + id + "/**"));
        assertThat(moved.status()).as(moved.body()).isEqualTo(200);

        RouteTable table = table();
        assertThat(table.match("/old/" + id + "/a")).isNull();
        assertThat(table.match("/new/" + id + "/a").origin()).hasToString("http://127.0.0.1:18002");

        // the old path is free for another event now
        String other = Scenario.eventId("routes");
        assertThat(create(other, protect("http://127.0.0.1:18003", "/old/" + id + "/**"))
                        .status())
                .isEqualTo(201);

        Map<String, Object> nothing = new LinkedHashMap<>();
        nothing.put("paths", List.of());
        assertThat(patch(id, nothing).status()).isEqualTo(200);
        assertThat(this.ops.get("/admin/events/" + id).json().path("protect").isNull())
                .isTrue();
        assertThat(table().match("/new/" + id + "/a")).isNull();
    }

    @Test
    void overlapWithAnotherLiveEventIsRefusedNamingItUntilThatEventEnds() {
        String first = Scenario.eventId("routes");
        assertThat(create(first, protect("http://127.0.0.1:18001", "/o/" + first + "/**"))
                        .status())
                .isEqualTo(201);

        String second = Scenario.eventId("routes");
        for (String path : List.of("/o/" + first + "/**", "/o/" + first + "/deep/page", "/o/" + first, "/o/**")) {
            Http.Response refused = create(second, protect("http://127.0.0.1:18002", path));
            assertThat(refused.status()).as(path).isEqualTo(409);
            assertThat(refused.problemType()).endsWith("/route-conflict");
            assertThat(refused.json().path("detail").asString()).contains(first).contains("/o/" + first + "/**");
        }
        assertThat(this.ops.get("/admin/events/" + second).status())
                .as("a refused creation creates nothing")
                .isEqualTo(404);

        // a sibling path is no overlap
        assertThat(create(second, protect("http://127.0.0.1:18002", "/o/" + first + "-b/**"))
                        .status())
                .isEqualTo(201);
        // nor is a refused PATCH applied in part
        Http.Response refused = this.ops.send(
                "PATCH",
                "/admin/events/" + second,
                Http.json(Map.of("name", "renamed", "protect", protect("http://127.0.0.1:18002", "/o/" + first))));
        assertThat(refused.status()).isEqualTo(409);
        assertThat(this.ops.get("/admin/events/" + second).json().path("name").asString())
                .isEqualTo("Protected " + second);

        assertThat(this.ops
                        .post("/admin/events/" + first + "/end", Http.json(Map.of("reason", "over")))
                        .status())
                .isEqualTo(200);
        assertThat(table().match("/o/" + first + "/x")).isNull();
        String third = Scenario.eventId("routes");
        assertThat(create(third, protect("http://127.0.0.1:18002", "/o/" + first + "/**"))
                        .status())
                .as("an ended event's paths are free")
                .isEqualTo(201);
    }

    @Test
    void malformedAndForeignOriginsAreRefusedAsBadOrigin() {
        for (String origin : List.of(
                "ftp://shop.example",
                "javascript:alert(1)",
                "shop.example",
                "https://user:pw@shop.example",
                "https://shop.example/?a=1",
                "https://shop.example/#f",
                "https://shop.example/base",
                "https:///nohost",
                "http://127.0.0.1:9082",
                "http://localhost:8081")) {
            String id = Scenario.eventId("routes");
            Http.Response refused = create(id, protect(origin, "/bo/" + id + "/**"));
            assertThat(refused.status()).as(origin).isEqualTo(400);
            assertThat(refused.problemType()).as(origin).endsWith("/bad-origin");
        }
    }

    @Test
    void badPathsAndWaitroomsOwnPathsAreRefusedAsBadRoute() {
        String id = Scenario.eventId("routes");
        for (String path : List.of(
                "relative/**",
                "/a//b",
                "/a/../b",
                "/a/./b",
                "/a/%2e%2e/b",
                "/a/*/b",
                "/a/b*",
                "/a\\b",
                "/a b",
                "/a/b?x=1",
                "/**",
                "/admin/**",
                "/.well-known/jwks.json",
                "/forward-auth",
                "/webhooks/payments",
                "/actuator/health",
                "/events/**",
                "/events/" + id,
                "/events/" + id + "/**",
                "/events/" + id + "/queue/**",
                "/events/" + id + "/admission/claim",
                "/events/" + id + "/shopping-session/**",
                "/events/" + id + "/status",
                "/events/other-event/shop/**",
                "/" + "x".repeat(201))) {
            Http.Response refused = create(id, protect("https://shop.example", path));
            assertThat(refused.status()).as(path).isEqualTo(400);
            assertThat(refused.problemType()).as(path).endsWith("/bad-route");
        }
        assertThat(create(id, protect("https://shop.example", "/events/" + id + "/shop/**"))
                        .status())
                .as("the event's own shop under its own path is allowed")
                .isEqualTo(201);
    }
}
