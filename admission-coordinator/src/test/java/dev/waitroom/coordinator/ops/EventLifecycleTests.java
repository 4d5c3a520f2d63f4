package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.routes.RouteTablePublisher;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 30, item 5, over the ops API's real HTTP and PostgreSQL (the queue side in memory, held against the
 * queue-service by the directory's contract scenarios): drafts take no joins, are never pushed and protect nothing
 * until published; publication freezes the rules; archive and delete are guarded by the sale's phase and drop the
 * queue's keys; publish against PATCH, two publishes and delete against a join converge on one outcome.
 */
@CoordinatorTest
class EventLifecycleTests {

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RedissonClient redisson;

    @Autowired
    RouteTablePublisher routeTable;

    @Autowired
    Events events;

    Http ops;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
    }

    @AfterEach
    void queueBackUp() {
        this.scenario.queue.unavailable(false);
    }

    private Map<String, Object> body(String id, boolean draft, String path) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Lifecycle " + id);
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        if (draft) {
            body.put("draft", true);
        }
        if (path != null) {
            body.put("protect", Map.of("origin", "http://127.0.0.1:18011", "paths", List.of(path)));
        }
        return body;
    }

    private String create(String prefix, boolean draft, String path) {
        String id = Scenario.eventId(prefix);
        Http.Response created = this.ops.post("/admin/events", Http.json(body(id, draft, path)));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        assertThat(created.json().path("state").asString()).isEqualTo(draft ? "DRAFT" : "PUBLISHED");
        return id;
    }

    private Http.Response action(String id, String action, String reason) {
        return this.ops.post(
                "/admin/events/" + id + "/" + action, reason == null ? null : Http.json(Map.of("reason", reason)));
    }

    private Http.Response delete(String id, String reason) {
        return this.ops.send("DELETE", "/admin/events/" + id, Http.json(Map.of("reason", reason)));
    }

    private Http.Response patch(String id, Map<String, ?> fields) {
        return this.ops.send("PATCH", "/admin/events/" + id, Http.json(fields));
    }

    private JsonNode read(String id) {
        return this.ops.get("/admin/events/" + id).json();
    }

    private RouteTable table() {
        this.routeTable.publishQuietly();
        return RouteTable.decode(this.redisson
                .<String>getBucket(RedisKeys.ROUTES, StringCodec.INSTANCE)
                .get());
    }

    private List<String> audit(String id) {
        return this.jdbc
                .sql("select coalesce(from_value, '') || '>' || to_value || ':' || reason from mode_changes"
                        + " where event_id = :id and kind = 'CONFIG' order by id")
                .param("id", id)
                .query(String.class)
                .list();
    }

    private static void assertProblem(Http.Response answer, int status, String type) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(status);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.problemType()).isEqualTo("https://waitroom.dev/problems/" + type);
    }

    @Test
    void aDraftTakesNoJoinsIsNeverPushedProtectsNothingAndItsRulesAndPathsChange() {
        String id = create("draft", true, "/d/" + System.nanoTime() + "/**");
        String path = read(id).path("protect").path("paths").get(0).asString();

        assertThat(this.scenario.queue.knows(id))
                .as("never pushed to the queue")
                .isFalse();
        assertThatThrownBy(() -> this.scenario.queue.join(id, VisitorId.random().value()))
                .hasMessageContaining("unknown-event");
        assertThat(table().match(path.replace("**", "x")))
                .as("not in the route table")
                .isNull();

        Http.Response changed = patch(
                id,
                Map.of(
                        "presaleOrdering", "FIFO",
                        "afterPurchase", "KEEP",
                        "protect", Map.of("origin", "http://127.0.0.1:18012", "paths", List.of(path))));
        assertThat(changed.status()).as(changed.body()).isEqualTo(200);
        assertThat(changed.json().path("presaleOrdering").asString()).isEqualTo("FIFO");
        assertThat(changed.json().path("protect").path("origin").asString()).isEqualTo("http://127.0.0.1:18012");
        assertThat(this.scenario.queue.knows(id))
                .as("a PATCH of a draft pushes nothing")
                .isFalse();

        assertProblem(action(id, "open", "too early"), 409, "invalid-transition");
        assertProblem(action(id, "pause", "too early"), 409, "invalid-transition");
        assertThat(this.events.unfinished())
                .as("the ticker does not lead a draft")
                .noneMatch(e -> e.id().value().equals(id));
        assertThat(read(id).path("phase").asString()).isEqualTo("SCHEDULED");
    }

    @Test
    void publishingFreezesTheRulesPushesTheEventAndRoutesItsPaths() {
        String path = "/p/" + System.nanoTime() + "/**";
        String id = create("publish", true, path);

        assertProblem(action(id, "publish", null), 400, "malformed-request");
        assertThat(read(id).path("state").asString())
                .as("nothing published without a reason")
                .isEqualTo("DRAFT");

        Http.Response published = action(id, "publish", "rules checked");
        assertThat(published.status()).as(published.body()).isEqualTo(200);
        assertThat(published.json().path("state").asString()).isEqualTo("PUBLISHED");
        assertThat(this.scenario.queue.knows(id)).isTrue();
        assertThat(this.scenario.queue.lastState(id).commitment())
                .isEqualTo(read(id).path("commitment").asString());
        assertThat(table().match(path.replace("**", "seats")).eventId().value()).isEqualTo(id);

        Http.Response frozen = patch(id, Map.of("presaleOrdering", "FIFO"));
        assertProblem(frozen, 409, "rule-frozen");
        assertThat(patch(id, Map.of("maxAdmissionsPerSecond", 20)).status())
                .as("the knobs still change")
                .isEqualTo(200);

        assertThat(action(id, "publish", "again").status())
                .as("a repeat changes nothing")
                .isEqualTo(200);
        assertThat(audit(id)).filteredOn(a -> a.contains("PUBLISHED")).containsExactly("DRAFT>PUBLISHED:rules checked");
    }

    @Test
    void aDraftWhosePathsAnotherEventTookMeanwhileIsNotPublished() {
        String path = "/t/" + System.nanoTime() + "/**";
        String draft = create("taken", true, path);
        create("taker", false, path);

        Http.Response refused = action(draft, "publish", "go");
        assertProblem(refused, 409, "route-conflict");
        assertThat(read(draft).path("state").asString()).isEqualTo("DRAFT");
        assertThat(this.scenario.queue.knows(draft)).isFalse();
    }

    @Test
    void twoConcurrentPublishesPublishOnce() throws Exception {
        for (int round = 0; round < 5; round++) {
            String id = create("twice", true, null);
            CyclicBarrier start = new CyclicBarrier(4);
            List<CompletableFuture<Http.Response>> calls = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                int n = i;
                calls.add(CompletableFuture.supplyAsync(() -> {
                    await(start);
                    return action(id, "publish", "publisher " + n);
                }));
            }
            for (CompletableFuture<Http.Response> call : calls) {
                Http.Response answer = call.get();
                assertThat(answer.status()).as(answer.body()).isEqualTo(200);
                assertThat(answer.json().path("state").asString()).isEqualTo("PUBLISHED");
            }
            assertThat(audit(id))
                    .filteredOn(a -> a.startsWith("DRAFT>PUBLISHED"))
                    .hasSize(1);
        }
    }

    @Test
    void publishAgainstPatchEitherPublishesThePatchOrFreezesIt() throws Exception {
        int patched = 0;
        int frozen = 0;
        for (int round = 0; round < 12; round++) {
            String id = create("race", true, null);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<Http.Response> change = CompletableFuture.supplyAsync(() -> {
                await(start);
                return patch(id, Map.of("presaleOrdering", "FIFO"));
            });
            CompletableFuture<Http.Response> publish = CompletableFuture.supplyAsync(() -> {
                await(start);
                return action(id, "publish", "race");
            });
            assertThat(publish.get().status()).as(publish.get().body()).isEqualTo(200);
            Http.Response c = change.get();
            String stored = read(id).path("presaleOrdering").asString();
            if (c.status() == 200) {
                patched++;
                assertThat(stored).isEqualTo("FIFO");
            } else {
                frozen++;
                assertProblem(c, 409, "rule-frozen");
                assertThat(stored).isEqualTo("RANDOM");
            }
            assertThat(this.scenario.queue.lastState(id).presaleOrdering())
                    .as("the queue holds the rule that was published")
                    .isEqualTo(stored);
            assertThat(patch(id, Map.of("presaleOrdering", stored.equals("FIFO") ? "RANDOM" : "FIFO"))
                            .status())
                    .as("frozen after publication, whichever came first")
                    .isEqualTo(409);
        }
        assertThat(patched + frozen).isEqualTo(12);
    }

    @Test
    void archiveTakesOnlyAnEndedOrNeverOpenedEventDropsItsQueueKeysAndKeepsItsRecords() {
        String path = "/a/" + System.nanoTime() + "/**";
        String id = create("archive", false, path);
        this.scenario.join(id, 3);
        assertThat(action(id, "open", "doors open").status()).isEqualTo(200);

        assertProblem(action(id, "archive", "too soon"), 409, "invalid-transition");
        assertProblem(action(id, "archive", null), 400, "malformed-request");
        assertThat(action(id, "end", "sale over").status()).isEqualTo(200);

        Http.Response archived = action(id, "archive", "season over");
        assertThat(archived.status()).as(archived.body()).isEqualTo(200);
        assertThat(archived.json().path("state").asString()).isEqualTo("ARCHIVED");
        assertThat(this.scenario.queue.knows(id))
                .as("the queue's keys are dropped")
                .isFalse();
        assertThat(table().match(path.replace("**", "x"))).isNull();
        assertThat(read(id).path("phase").asString()).as("its records are kept").isEqualTo("ENDED");
        assertThat(audit(id)).contains("PUBLISHED>ARCHIVED:season over");
        assertThat(this.jdbc
                        .sql("select count(*) from mode_changes where event_id = :id")
                        .param("id", id)
                        .query(Long.class)
                        .single())
                .isGreaterThan(3);

        assertProblem(patch(id, Map.of("maxAdmissionsPerSecond", 3)), 409, "invalid-transition");
        assertThat(action(id, "archive", "again").status())
                .as("a repeat changes nothing")
                .isEqualTo(200);
        assertThat(audit(id)).filteredOn(a -> a.contains("ARCHIVED")).hasSize(1);
        assertThat(this.events.unfinished()).noneMatch(e -> e.id().value().equals(id));
    }

    @Test
    void anEndedEventIsNotArchivedWhileShoppersAdmittedBeforeTheEndAreInside() {
        String id = this.scenario.openNewEvent(
                "inside",
                Scenario.config(
                        4,
                        10,
                        4,
                        60,
                        600,
                        1200,
                        dev.waitroom.contract.ExpiredOfferPolicy.REQUEUE_ONCE,
                        dev.waitroom.contract.AfterPurchase.RELEASE));
        this.scenario.fullRate();
        this.scenario.join(id, 1);
        this.scenario.tickUntilLive(id, 1);
        assertThat(action(id, "end", "sale over").status()).isEqualTo(200);

        Http.Response refused = action(id, "archive", "season over");
        assertProblem(refused, 409, "invalid-transition");
        assertThat(refused.json().path("detail").asString()).contains("still live");
        assertThat(read(id).path("state").asString()).isEqualTo("PUBLISHED");
        assertThat(this.scenario.queue.knows(id))
                .as("the queue keeps the event")
                .isTrue();
    }

    @Test
    void anArchiveTheQueueCannotTakeChangesNothing() {
        String id = create("archive", false, null);
        this.scenario.queue.unavailable(true);
        Http.Response refused = action(id, "archive", "never held");
        assertThat(refused.status()).as(refused.body()).isEqualTo(503);
        assertThat(refused.contentType()).startsWith("application/problem+json");
        this.scenario.queue.unavailable(false);
        assertThat(read(id).path("state").asString()).isEqualTo("PUBLISHED");
        assertThat(action(id, "archive", "never held").status()).isEqualTo(200);
    }

    @Test
    void deleteRemovesADraftOrAnUnjoinedScheduledEventAndRefusesAnythingElse() {
        String draft = create("delete", true, "/x/" + System.nanoTime() + "/**");
        assertProblem(this.ops.send("DELETE", "/admin/events/" + draft, null), 400, "malformed-request");
        Http.Response gone = delete(draft, "typo in the id");
        assertThat(gone.status()).as(gone.body()).isEqualTo(204);
        assertThat(this.ops.get("/admin/events/" + draft).status()).isEqualTo(404);
        assertThat(this.jdbc
                        .sql(
                                "select actor || ':' || lifecycle || ':' || reason from deleted_events where event_id = :id")
                        .param("id", draft)
                        .query(String.class)
                        .list())
                .containsExactly("ops:DRAFT:typo in the id");
        assertProblem(delete(draft, "again"), 404, "unknown-event");

        String empty = create("delete", false, null);
        assertThat(this.scenario.queue.knows(empty)).isTrue();
        assertThat(delete(empty, "never sold").status()).isEqualTo(204);
        assertThat(this.scenario.queue.knows(empty))
                .as("its queue keys are dropped")
                .isFalse();
        assertThat(this.jdbc
                        .sql("select count(*) from mode_changes where event_id = :id")
                        .param("id", empty)
                        .query(Long.class)
                        .single())
                .isZero();
        Http.Response again = this.ops.post("/admin/events", Http.json(body(empty, false, null)));
        assertThat(again.status()).as("the id is free again").isEqualTo(201);

        String joined = create("delete", false, null);
        this.scenario.join(joined, 1);
        assertProblem(delete(joined, "oops"), 409, "invalid-transition");
        assertThat(read(joined).path("state").asString()).isEqualTo("PUBLISHED");
        assertThat(this.scenario.queue.knows(joined)).isTrue();

        String opened = create("delete", false, null);
        assertThat(action(opened, "open", "go").status()).isEqualTo(200);
        assertProblem(delete(opened, "oops"), 409, "invalid-transition");
        assertThat(action(opened, "end", "over").status()).isEqualTo(200);
        assertProblem(delete(opened, "oops"), 409, "invalid-transition");
        assertThat(action(opened, "archive", "over").status()).isEqualTo(200);
        assertProblem(delete(opened, "oops"), 409, "invalid-transition");
        assertThat(read(opened).path("state").asString()).isEqualTo("ARCHIVED");
    }

    @Test
    void deleteAgainstAJoinEitherKeepsTheJoinOrRefusesIt() throws Exception {
        int kept = 0;
        int deleted = 0;
        for (int round = 0; round < 20; round++) {
            String id = create("joinrace", false, null);
            CyclicBarrier start = new CyclicBarrier(2);
            CompletableFuture<String> join = CompletableFuture.supplyAsync(() -> {
                await(start);
                try {
                    return this.scenario.queue.join(id, VisitorId.random().value());
                } catch (IllegalStateException ex) {
                    return "refused " + ex.getMessage();
                }
            });
            CompletableFuture<Http.Response> delete = CompletableFuture.supplyAsync(() -> {
                await(start);
                return delete(id, "race");
            });
            Http.Response d = delete.get();
            String j = join.get();
            if (d.status() == 204) {
                deleted++;
                assertThat(j).as("a join after the deletion finds no event").startsWith("refused unknown-event");
                assertThat(this.ops.get("/admin/events/" + id).status()).isEqualTo(404);
            } else {
                kept++;
                assertProblem(d, 409, "invalid-transition");
                assertThat(j).as("the join came first and keeps its place").doesNotStartWith("refused");
                assertThat(read(id).path("state").asString()).isEqualTo("PUBLISHED");
                assertThat(this.scenario.queue.knows(id)).isTrue();
            }
        }
        assertThat(kept + deleted).isEqualTo(20);
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await();
        } catch (Exception ex) {
            throw new IllegalStateException(ex);
        }
    }
}
