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
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Issue 30, item 3, over the ops API's real HTTP, PostgreSQL and Redis: an event's {@code allow.paths} are set at
 * creation and by PATCH, shown, audited and carried in the route table as allow entries; a rule that would let a
 * whole protected path (or everything, {@code /**}) past the queue, or that lies outside the event's paths, is refused
 * with {@code bad-allow-rule} and nothing of the request is applied.
 */
@CoordinatorTest
class AllowRulesTests {

    @Autowired
    Scenario scenario;

    @Autowired
    RedissonClient redisson;

    @Autowired
    JdbcClient jdbc;

    Http ops;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
    }

    private static Map<String, Object> protect(String... paths) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("origin", "http://127.0.0.1:18010");
        p.put("paths", List.of(paths));
        return p;
    }

    private Http.Response create(String id, Map<String, Object> protect, List<String> allow) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Allowed " + id);
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        if (protect != null) {
            body.put("protect", protect);
        }
        if (allow != null) {
            body.put("allow", Map.of("paths", allow));
        }
        return this.ops.post("/admin/events", Http.json(body));
    }

    private Http.Response patch(String id, Map<String, Object> body) {
        return this.ops.send("PATCH", "/admin/events/" + id, Http.json(body));
    }

    private RouteTable table() {
        return RouteTable.decode(this.redisson
                .<String>getBucket(RedisKeys.ROUTES, StringCodec.INSTANCE)
                .get());
    }

    private List<String> allowShown(String id) {
        return this.ops.get("/admin/events/" + id).json().path("allow").path("paths").values().stream()
                .map(n -> n.asString())
                .toList();
    }

    private List<String> auditReasons(String id) {
        return this.jdbc
                .sql("select reason from mode_changes where event_id = :id and kind = 'CONFIG' order by id")
                .param("id", id)
                .query(String.class)
                .list();
    }

    @Test
    void allowRulesAreStoredShownAndCarriedInTheGatewaysTable() {
        String id = Scenario.eventId("allow");
        String base = "/c/" + id;
        Http.Response created = create(
                id, protect(base + "/**"), List.of(base + "/assets/**", base + "/robots.txt", base + "/healthz"));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(allowShown(id)).containsExactly(base + "/assets/**", base + "/robots.txt", base + "/healthz");

        RouteTable table = table();
        RouteTable.Entry asset = table.match(base + "/assets/app.css");
        assertThat(asset.allowed()).isTrue();
        assertThat(asset.eventId()).isEqualTo(EventId.of(id));
        assertThat(table.match(base + "/robots.txt").allowed()).isTrue();
        assertThat(table.match(base + "/seats").allowed()).isFalse();
    }

    @Test
    void ruleThatWouldAllowEverythingOrAWholeProtectedPathOrLiesOutsideIsRefusedAndCreatesNothing() {
        String id = Scenario.eventId("allow");
        String base = "/c/" + id;
        for (String bad : List.of("/**", base + "/**", "/c/**", "/elsewhere/robots.txt", base + "/a//b", "/x*")) {
            Http.Response refused = create(id, protect(base + "/**"), List.of(bad));
            assertThat(refused.status()).as(bad + " " + refused.body()).isEqualTo(400);
            assertThat(refused.problemType()).as(bad).endsWith("/bad-allow-rule");
            assertThat(refused.json().path("detail").asString()).as(bad).contains("allow.paths");
        }
        assertThat(create(id, protect(base + "/**"), List.of("/**"))
                        .json()
                        .path("detail")
                        .asString())
                .contains("every request past the queue");
        assertThat(this.ops.get("/admin/events/" + id).status())
                .as("a refused creation creates nothing")
                .isEqualTo(404);
    }

    @Test
    void patchSetsAndClearsRulesAuditedAndANewProtectKeepsThemOrIsRefusedWhole() {
        String id = Scenario.eventId("allow");
        String base = "/c/" + id;
        assertThat(create(id, protect(base + "/**"), null).status()).isEqualTo(201);
        assertThat(allowShown(id)).isEmpty();

        Http.Response set = patch(id, Map.of("allow", Map.of("paths", List.of(base + "/robots.txt"))));
        assertThat(set.status()).as(set.body()).isEqualTo(200);
        assertThat(allowShown(id)).containsExactly(base + "/robots.txt");
        assertThat(table().match(base + "/robots.txt").allowed()).isTrue();
        assertThat(auditReasons(id)).last().asString().contains("protect ").contains("allow [" + base + "/robots.txt]");

        // a wider protection keeps the rule
        Http.Response wider = patch(id, Map.of("protect", protect(base + "/**", "/checkout/" + id)));
        assertThat(wider.status()).as(wider.body()).isEqualTo(200);
        assertThat(allowShown(id)).containsExactly(base + "/robots.txt");

        // a protection the rule no longer fits is refused, with the maxActiveSessions change beside it
        Map<String, Object> moved = new LinkedHashMap<>();
        moved.put("maxActiveSessions", 9);
        moved.put("protect", protect("/elsewhere/" + id + "/**"));
        Http.Response refused = patch(id, moved);
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.problemType()).endsWith("/bad-allow-rule");
        Http.Response read = this.ops.get("/admin/events/" + id);
        assertThat(read.json().path("maxActiveSessions").asInt()).isEqualTo(4);
        assertThat(read.json().path("protect").path("paths").values()).hasSize(2);

        // both at once: moved, with a rule inside the new paths
        moved.put("allow", Map.of("paths", List.of("/elsewhere/" + id + "/healthz")));
        assertThat(patch(id, moved).status()).isEqualTo(200);
        assertThat(allowShown(id)).containsExactly("/elsewhere/" + id + "/healthz");
        assertThat(table().match(base + "/robots.txt")).isNull();

        assertThat(patch(id, Map.of("allow", Map.of("paths", List.of()))).status())
                .isEqualTo(200);
        assertThat(allowShown(id)).isEmpty();
        assertThat(table().match("/elsewhere/" + id + "/healthz").allowed()).isFalse();
    }

    @Test
    void anEventThatProtectsNothingHasNoRuleToAllow() {
        String id = Scenario.eventId("allow");
        Http.Response refused = create(id, Map.of("paths", List.of()), List.of("/c/" + id + "/robots.txt"));
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.problemType()).endsWith("/bad-allow-rule");
        assertThat(this.ops.get("/admin/events/" + id).status()).isEqualTo(404);
    }
}
