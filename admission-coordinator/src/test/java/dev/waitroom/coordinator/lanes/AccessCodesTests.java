package dev.waitroom.coordinator.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
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
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 30, item 4, over real HTTP and PostgreSQL (the queue side in memory): lanes declared and frozen, codes issued,
 * redeemed exactly as many times as allowed under concurrency, bad codes refused, and each tick's offers split by the
 * lanes' shares.
 */
@CoordinatorTest
@ExtendWith(OutputCaptureExtension.class)
class AccessCodesTests {

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    Http ops;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
    }

    private Http.Response create(String id, List<Map<String, Object>> lanes) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Lanes");
        body.put("maxActiveSessions", 1000);
        body.put("maxAdmissionsPerSecond", 10);
        body.put("batchMax", 10);
        if (lanes != null) {
            body.put("lanes", lanes);
        }
        return this.ops.post("/admin/events", Http.json(body));
    }

    private Http.Response putLanes(String id, List<Map<String, Object>> lanes) {
        return this.ops.send(
                "PUT", "/admin/events/" + id + "/lanes", Http.json(Map.of("lanes", lanes, "reason", "plan")));
    }

    private static Map<String, Object> lane(String name, double share) {
        return Map.of("name", name, "share", share);
    }

    private String withLanes(String prefix) {
        String id = Scenario.eventId(prefix);
        Http.Response created = create(id, List.of(lane("presale", 0.5), lane("members", 0.3)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    private List<String> issue(String id, String lane, int count, int uses) {
        Http.Response issued = this.ops.post(
                "/admin/events/" + id + "/lanes/" + lane + "/codes",
                Http.json(Map.of("count", count, "usesPerCode", uses, "reason", "presale partners")));
        assertThat(issued.status()).as(issued.body()).isEqualTo(201);
        assertThat(issued.header("Cache-Control")).contains("no-store");
        List<String> codes = new ArrayList<>();
        issued.json().get("codes").forEach(c -> codes.add(c.asString()));
        return codes;
    }

    private Http.Response redeem(String id, String visitor, String code) {
        return this.scenario
                .http()
                .send("POST", "/events/" + id + "/code", Http.json(Map.of("code", code)), Headers.VISITOR, visitor);
    }

    private void open(String id) {
        Http.Response opened = this.ops.post("/admin/events/" + id + "/open", Http.json(Map.of("reason", "doors")));
        assertThat(opened.status()).as(opened.body()).isEqualTo(200);
    }

    private static void assertProblem(Http.Response r, int status, String type) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.problemType()).isEqualTo("https://waitroom.dev/problems/" + type);
    }

    @Test
    void lanesAreValidatedAtCreationAndFreezeWithThePublishedRules() {
        for (List<Map<String, Object>> bad : List.of(
                List.of(lane("presale", 0.7), lane("members", 0.4)),
                List.of(lane("Presale", 0.2)),
                List.of(lane("general", 0.2)),
                List.of(lane("a", 0.2), lane("a", 0.2)),
                List.of(lane("a", 0)),
                List.<Map<String, Object>>of(Map.of("name", "nameless-share")))) {
            String id = Scenario.eventId("lanes-bad-rule");
            assertProblem(create(id, bad), 400, "invalid-lanes");
            assertThat(this.ops.get("/admin/events/" + id).status())
                    .as("nothing of a refused creation is kept")
                    .isEqualTo(404);
        }

        String id = withLanes("lanes-rules");
        JsonNode lanes = this.ops.get("/admin/events/" + id + "/lanes").json().get("lanes");
        assertThat(lanes).hasSize(3);
        assertThat(lanes.get(0).get("name").asString()).isEqualTo("presale");
        assertThat(lanes.get(2).get("name").asString()).isEqualTo("general");
        assertThat(lanes.get(2).get("share").asDouble()).isCloseTo(0.2, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(auditReasons(id)).anySatisfy(r -> assertThat(r).contains("lanes [presale 0.5, members 0.3"));

        Http.Response frozen = putLanes(id, List.of(lane("presale", 0.9)));
        assertProblem(frozen, 409, "rule-frozen");
        assertThat(frozen.json().get("rule").asString()).isEqualTo("lanes");
        assertThat(this.ops
                        .get("/admin/events/" + id + "/lanes")
                        .json()
                        .get("lanes")
                        .get(0)
                        .get("share")
                        .asDouble())
                .isEqualTo(0.5);
    }

    @Test
    void lanesChangeUntilTheCommitmentIsPublished() {
        String id = Scenario.eventId("lanes-unpublished");
        this.scenario.queue.unavailable(true);
        try {
            assertThat(create(id, null).status()).isEqualTo(201);
            assertProblem(putLanes(id, List.of(lane("presale", 0.7), lane("members", 0.4))), 400, "invalid-lanes");
            Http.Response put = putLanes(id, List.of(lane("access", 0.1)));
            assertThat(put.status()).as(put.body()).isEqualTo(200);
            assertThat(put.json().get("lanes").get(1).get("share").asDouble())
                    .isCloseTo(0.9, org.assertj.core.data.Offset.offset(1e-9));
        } finally {
            this.scenario.queue.unavailable(false);
        }
        assertThat(auditReasons(id))
                .anySatisfy(r -> assertThat(r).contains("lanes [access 0.1").contains("plan"));
    }

    @Test
    void codesAreIssuedOnceStoredHashedAndAudited() {
        String id = withLanes("lanes-issue");
        List<String> codes = issue(id, "presale", 5, 2);
        assertThat(codes).hasSize(5).doesNotHaveDuplicates().allMatch(c -> c.matches("([A-Z2-9]{6}-){3}[A-Z2-9]{6}"));
        assertThat(this.jdbc
                        .sql("select count(*) from access_codes where event_id = :id and uses_allowed = 2")
                        .param("id", id)
                        .query(Long.class)
                        .single())
                .isEqualTo(5);
        assertThat(this.jdbc
                        .sql("select count(*) from access_codes where encode(code_sha256, 'escape') like :c")
                        .param("c", "%" + codes.get(0).replace("-", "").substring(0, 10) + "%")
                        .query(Long.class)
                        .single())
                .as("only the hash is kept")
                .isZero();
        assertThat(auditReasons(id)).anySatisfy(r -> assertThat(r).contains("5 codes of lane presale"));

        assertProblem(
                this.ops.post("/admin/events/" + id + "/lanes/vip/codes", Http.json(Map.of("count", 1, "reason", "x"))),
                404,
                "unknown-lane");
        assertProblem(
                this.ops.post(
                        "/admin/events/" + id + "/lanes/general/codes", Http.json(Map.of("count", 1, "reason", "x"))),
                404,
                "unknown-lane");
        assertProblem(
                this.ops.post(
                        "/admin/events/" + id + "/lanes/presale/codes", Http.json(Map.of("count", 0, "reason", "x"))),
                400,
                "invalid-lanes");
        assertProblem(
                this.ops.post(
                        "/admin/events/" + id + "/lanes/presale/codes",
                        Http.json(Map.of("count", 1, "usesPerCode", 0, "reason", "x"))),
                400,
                "invalid-lanes");
        Http.Response noReason =
                this.ops.post("/admin/events/" + id + "/lanes/presale/codes", Http.json(Map.of("count", 1)));
        assertThat(noReason.status()).as(noReason.body()).isEqualTo(400);
        Http.Response noToken = this.scenario
                .http()
                .post("/admin/events/" + id + "/lanes/presale/codes", Http.json(Map.of("count", 1, "reason", "x")));
        assertThat(noToken.status()).isEqualTo(401);
        assertThat(this.jdbc
                        .sql("select count(*) from access_codes where event_id = :id")
                        .param("id", id)
                        .query(Long.class)
                        .single())
                .as("no refused call issued a code")
                .isEqualTo(5);
    }

    @Test
    void manyVisitorsRedeemingTheLastUsesOfACodeGetExactlyThatManyPlaces(CapturedOutput output) throws Exception {
        String id = withLanes("lanes-race");
        open(id);
        int uses = 3;
        String code = issue(id, "presale", 1, uses).get(0);
        List<String> visitors = this.scenario.join(id, 24);
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(12);
        try {
            List<Future<Http.Response>> answers = new ArrayList<>();
            for (String v : visitors) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return redeem(id, v, code.toLowerCase());
                }));
            }
            start.countDown();
            int ok = 0;
            int usedUp = 0;
            for (Future<Http.Response> f : answers) {
                Http.Response r = f.get();
                if (r.status() == 200) {
                    ok++;
                    assertThat(r.json().get("lane").asString()).isEqualTo("presale");
                } else {
                    assertProblem(r, 409, "code-used-up");
                    usedUp++;
                }
            }
            assertThat(ok).isEqualTo(uses);
            assertThat(usedUp).isEqualTo(visitors.size() - uses);
        } finally {
            pool.shutdownNow();
        }
        FakeQueueService queue = this.scenario.queue;
        assertThat(visitors.stream().filter(v -> queue.laneOf(id, v).equals("presale")))
                .hasSize(uses);
        assertThat(this.jdbc
                        .sql("select uses from access_codes where event_id = :id")
                        .param("id", id)
                        .query(Integer.class)
                        .single())
                .isEqualTo(uses);
        assertThat(output.getAll()).as("the code never reaches a log line").doesNotContain(code);
    }

    @Test
    void aRepeatSpendsNoUseAndARefusedMoveSpendsNothing() {
        String id = withLanes("lanes-repeat");
        open(id);
        String code = issue(id, "members", 1, 1).get(0);
        String visitor = this.scenario.join(id, 1).get(0);
        assertThat(redeem(id, visitor, code).status()).isEqualTo(200);
        Http.Response again = redeem(id, visitor, code.replace("-", " "));
        assertThat(again.status()).as("the same visitor again: no second use").isEqualTo(200);
        assertThat(again.json().get("lane").asString()).isEqualTo("members");

        String other = issue(id, "members", 1, 1).get(0);
        assertProblem(redeem(id, VisitorId.random().value(), other), 404, "not-in-queue");
        String waiting = this.scenario.join(id, 1).get(0);
        assertThat(redeem(id, waiting, other).status())
                .as("the refused move spent nothing of the code")
                .isEqualTo(200);
    }

    @Test
    void forgedWrongEventRevokedAndExpiredCodesAreRefused() {
        String id = withLanes("lanes-bad");
        String elsewhere = withLanes("lanes-other");
        open(id);
        String visitor = this.scenario.join(id, 1).get(0);

        assertProblem(redeem(id, visitor, "ABCDEF-GHJKLM-NPQRST-UVWXYZ"), 403, "code-invalid");
        assertProblem(redeem(id, visitor, "not a code at all"), 403, "code-invalid");
        assertProblem(redeem(id, visitor, "x".repeat(5000)), 403, "code-invalid");
        assertProblem(redeem(id, visitor, issue(elsewhere, "presale", 1, 1).get(0)), 403, "code-invalid");
        Http.Response noBody =
                this.scenario.http().send("POST", "/events/" + id + "/code", "{}", Headers.VISITOR, visitor);
        assertProblem(noBody, 400, "malformed-request");
        Http.Response noVisitor = this.scenario
                .http()
                .post("/events/" + id + "/code", Http.json(Map.of("code", "AAAAAA-AAAAAA-AAAAAA-AAAAAA")));
        assertThat(noVisitor.status()).isEqualTo(400);

        List<String> batch = issue(id, "presale", 3, 1);
        Http.Response issuedAgain = this.ops.get("/admin/events/" + id + "/lanes");
        assertThat(issuedAgain
                        .json()
                        .get("lanes")
                        .get(0)
                        .get("codes")
                        .get("codes")
                        .asLong())
                .isEqualTo(3);
        Http.Response one = this.ops.send(
                "DELETE",
                "/admin/events/" + id + "/lanes/presale/codes",
                Http.json(Map.of("code", batch.get(0), "reason", "leaked")));
        assertThat(one.status()).as(one.body()).isEqualTo(200);
        assertProblem(redeem(id, visitor, batch.get(0)), 410, "code-revoked");

        String batchId = this.jdbc
                .sql("select batch_id from access_codes where event_id = :id limit 1")
                .param("id", id)
                .query(String.class)
                .single();
        Http.Response all = this.ops.send(
                "DELETE",
                "/admin/events/" + id + "/lanes/presale/codes/" + batchId,
                Http.json(Map.of("reason", "partner ended")));
        assertThat(all.status()).as(all.body()).isEqualTo(200);
        assertThat(all.json().get("revoked").asInt()).isEqualTo(2);
        assertProblem(redeem(id, visitor, batch.get(1)), 410, "code-revoked");
        assertThat(auditReasons(id))
                .anySatisfy(r -> assertThat(r).contains("leaked"))
                .anySatisfy(r -> assertThat(r).contains("partner ended"));

        String expiring = issue(id, "members", 1, 1).get(0);
        this.jdbc
                .sql(
                        "update access_codes set expires_at = now() - interval '1 second' where event_id = :id and lane = 'members'")
                .param("id", id)
                .update();
        assertProblem(redeem(id, visitor, expiring), 410, "code-expired");
        assertThat(this.scenario.queue.laneOf(id, visitor)).as("nothing moved").isEqualTo("general");
    }

    @Test
    void eachTicksOffersAreSplitByTheLanesSharesAndAnEmptyLanesShareGoesToTheOthers() {
        String id = withLanes("lanes-split");
        open(id);
        List<String> visitors = this.scenario.join(id, 90);
        FakeQueueService queue = this.scenario.queue;
        for (int i = 0; i < 90; i++) {
            this.scenario.directory.moveToLane(
                    EventId.of(id),
                    new VisitorId(visitors.get(i)),
                    null,
                    i % 3 == 0 ? "presale" : i % 3 == 1 ? "members" : "general");
        }
        this.scenario.fullRate();
        int offered = 0;
        for (int t = 0; t < 5 && offered == 0; t++) {
            offered = this.scenario.tick(id, Duration.ofSeconds(1));
        }
        assertThat(offered).isPositive();
        Map<String, Integer> byLane = offeredByLane(id, visitors);
        assertThat(byLane.values().stream().mapToInt(Integer::intValue).sum()).isEqualTo(offered);
        assertThat((double) byLane.getOrDefault("presale", 0)).isBetween(offered * 0.5 - 1, offered * 0.5 + 1);
        assertThat((double) byLane.getOrDefault("members", 0)).isBetween(offered * 0.3 - 1, offered * 0.3 + 1);
        assertThat((double) byLane.getOrDefault("general", 0)).isBetween(offered * 0.2 - 1, offered * 0.2 + 1);
        // within a lane, the order is the lane's join order
        List<String> presale = new ArrayList<>();
        for (int i = 0; i < 90; i += 3) {
            presale.add(visitors.get(i));
        }
        int n = byLane.getOrDefault("presale", 0);
        assertThat(presale.subList(0, n)).allMatch(v -> queue.entry(id, v).state() != FakeQueueEntry.State.WAITING);
        assertThat(presale.subList(n, presale.size()))
                .allMatch(v -> queue.entry(id, v).state() == FakeQueueEntry.State.WAITING);

        String empty = withLanes("lanes-empty");
        open(empty);
        List<String> others = this.scenario.join(empty, 60);
        for (int i = 0; i < 60; i++) {
            this.scenario.directory.moveToLane(
                    EventId.of(empty), new VisitorId(others.get(i)), null, i % 2 == 0 ? "members" : "general");
        }
        int made = 0;
        for (int t = 0; t < 5 && made == 0; t++) {
            made = this.scenario.tick(empty, Duration.ofSeconds(1));
        }
        Map<String, Integer> split = offeredByLane(empty, others);
        assertThat(split.values().stream().mapToInt(Integer::intValue).sum())
                .as("the empty presale lane wastes nothing")
                .isEqualTo(made)
                .isEqualTo(Math.min(10, 60));
        assertThat((double) split.getOrDefault("members", 0)).isBetween(made * 0.6 - 1, made * 0.6 + 1);
    }

    private Map<String, Integer> offeredByLane(String id, List<String> visitors) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String v : visitors) {
            if (this.scenario.queue.entry(id, v).state() == FakeQueueEntry.State.OFFERED) {
                out.merge(this.scenario.queue.laneOf(id, v), 1, Integer::sum);
            }
        }
        return out;
    }

    private List<String> auditReasons(String id) {
        return this.jdbc
                .sql("select reason from mode_changes where event_id = :id and kind = 'CONFIG' order by id")
                .param("id", id)
                .query(String.class)
                .list();
    }
}
