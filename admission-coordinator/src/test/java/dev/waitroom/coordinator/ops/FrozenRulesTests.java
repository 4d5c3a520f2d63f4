package dev.waitroom.coordinator.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Issue 17, item 2, over real HTTP and PostgreSQL: the four sale rules change only before the draw commitment (pushed
 * with them) reaches the queue and before the sale opens; afterwards a change is 409 {@code rule-frozen} naming the rule
 * and applies nothing of the PATCH, while the same value and the operational knobs are still accepted and audited.
 */
@CoordinatorTest
@ExtendWith(OutputCaptureExtension.class)
class FrozenRulesTests {

    /** Each frozen rule, the value events are created with and another one. */
    static final Map<String, List<String>> RULES = Map.of(
            "presaleOrdering", List.of("RANDOM", "FIFO"),
            "expiredOfferPolicy", List.of("REQUEUE_ONCE", "DROP"),
            "identityScope", List.of("BROWSER", "ACCOUNT"),
            "afterPurchase", List.of("RELEASE", "KEEP"));

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    Http ops;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
    }

    @AfterEach
    void queueBackUp() {
        this.scenario.queue.unavailable(false);
    }

    private String create() {
        String id = Scenario.eventId("frozen");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", id);
        body.put("name", "Frozen rules");
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        body.put("offerTtlSeconds", 30);
        RULES.forEach((rule, values) -> body.put(rule, values.get(0)));
        Http.Response created = this.ops.post("/admin/events", Http.json(body));
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return id;
    }

    private Http.Response patch(String id, Map<String, ?> fields) {
        return this.ops.send("PATCH", "/admin/events/" + id, Http.json(fields));
    }

    private JsonNode read(String id) {
        return this.ops.get("/admin/events/" + id).json();
    }

    private List<String> auditReasons(String id) {
        return this.jdbc
                .sql("select reason from mode_changes where event_id = :id and kind = 'CONFIG' order by id")
                .param("id", id)
                .query(String.class)
                .list();
    }

    private static void assertFrozen(Http.Response answer, String rule) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(409);
        assertThat(answer.contentType()).startsWith("application/problem+json");
        assertThat(answer.problemType()).isEqualTo("https://waitroom.dev/problems/rule-frozen");
        assertThat(answer.json().path("rule").asString()).isEqualTo(rule);
        assertThat(answer.json().path("detail").asString()).contains(rule);
    }

    @Test
    void eachRuleIsFrozenOnceTheCommitmentIsPublished() {
        RULES.forEach((rule, values) -> {
            String id = create();
            assertThat(this.scenario.queue.lastState(id).commitment())
                    .as("the queue holds the commitment")
                    .isNotBlank();
            EventUpdateRequest pushed = this.scenario.queue.lastState(id);

            assertFrozen(patch(id, Map.of(rule, values.get(1))), rule);

            assertThat(read(id).path(rule).asString()).isEqualTo(values.get(0));
            assertThat(read(id).path("phase").asString()).isEqualTo("SCHEDULED");
            assertThat(this.scenario.queue.lastState(id)).as("nothing pushed").isSameAs(pushed);
            assertThat(auditReasons(id)).containsExactly("event created");
        });
    }

    @Test
    void eachRuleChangesWhileTheCommitmentHasNotReachedTheQueueAndIsFrozenOnceItHas() {
        RULES.forEach((rule, values) -> {
            this.scenario.queue.unavailable(true);
            String id = create();

            Http.Response changed = patch(id, Map.of(rule, values.get(1)));
            assertThat(changed.status()).as(changed.body()).isEqualTo(200);
            assertThat(changed.json().path(rule).asString()).isEqualTo(values.get(1));

            this.scenario.queue.unavailable(false);
            Http.Response knob = patch(id, Map.of("maxActiveSessions", 5));
            assertThat(knob.status()).as(knob.body()).isEqualTo(200);
            assertThat(this.scenario.queue.lastState(id).commitment()).isNotBlank();

            assertFrozen(patch(id, Map.of(rule, values.get(0))), rule);
            assertThat(read(id).path(rule).asString()).isEqualTo(values.get(1));
            assertThat(auditReasons(id))
                    .containsExactly(
                            "event created",
                            "configuration changed: " + rule + " " + values.get(0) + " -> " + values.get(1),
                            "configuration changed: maxActiveSessions 4 -> 5");
        });
    }

    @Test
    void eachRuleIsFrozenAfterTheSaleOpenedEvenIfTheCommitmentNeverReachedTheQueue() {
        RULES.forEach((rule, values) -> {
            this.scenario.queue.unavailable(true);
            String id = create();
            Http.Response opened = this.ops.post("/admin/events/" + id + "/open", "{\"reason\":\"doors open\"}");
            assertThat(opened.status()).as(opened.body()).isEqualTo(200);
            assertThat(opened.json().path("phase").asString()).isEqualTo("OPEN");

            Http.Response refused = patch(id, Map.of(rule, values.get(1)));
            assertFrozen(refused, rule);
            assertThat(refused.json().path("detail").asString()).contains("opened");
            assertThat(read(id).path(rule).asString()).isEqualTo(values.get(0));
            this.scenario.queue.unavailable(false);
        });
    }

    @Test
    void aPatchThatWouldChangeAFrozenRuleAppliesNothingAtAll() {
        String id = create();
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("name", "Renamed");
        fields.put("maxActiveSessions", 9);
        fields.put("offerTtlSeconds", 45);
        fields.put("identityScope", "ACCOUNT");
        fields.put("afterPurchase", "KEEP");

        Http.Response refused = patch(id, fields);

        assertFrozen(refused, "identityScope");
        assertThat(refused.json().path("detail").asString()).contains("identityScope", "afterPurchase");
        JsonNode after = read(id);
        assertThat(after.path("name").asString()).isEqualTo("Frozen rules");
        assertThat(after.path("maxActiveSessions").asInt()).isEqualTo(4);
        assertThat(after.path("offerTtlSeconds").asInt()).isEqualTo(30);
        assertThat(after.path("identityScope").asString()).isEqualTo("BROWSER");
        assertThat(auditReasons(id)).containsExactly("event created");
    }

    @Test
    void theCurrentValueOfEveryRuleIsNoChangeAndIsAccepted() {
        String id = create();
        this.scenario.management.open(dev.waitroom.contract.EventId.of(id), "test", "doors open");
        Map<String, Object> fields = new LinkedHashMap<>();
        RULES.forEach((rule, values) -> fields.put(rule, values.get(0)));
        fields.put("maxActiveSessions", 6);

        Http.Response accepted = patch(id, fields);

        assertThat(accepted.status()).as(accepted.body()).isEqualTo(200);
        assertThat(accepted.json().path("maxActiveSessions").asInt()).isEqualTo(6);
        assertThat(auditReasons(id)).last().isEqualTo("configuration changed: maxActiveSessions 4 -> 6");

        Map<String, Object> same = new LinkedHashMap<>();
        RULES.forEach((rule, values) -> same.put(rule, values.get(0)));
        assertThat(patch(id, same).status()).isEqualTo(200);
        assertThat(auditReasons(id)).last().isEqualTo("configuration unchanged");
    }

    @Test
    void operationalKnobsAndTheNameStillChangeAfterOpeningAndAreAuditedByField(CapturedOutput output) {
        String id = create();
        this.scenario.management.open(dev.waitroom.contract.EventId.of(id), "test", "doors open");
        Map<String, Object> knobs = new LinkedHashMap<>();
        knobs.put("name", "Frozen rules, second night");
        knobs.put("maxActiveSessions", 40);
        knobs.put("maxAdmissionsPerSecond", 25.5);
        knobs.put("batchMax", 7);
        knobs.put("offerTtlSeconds", 90);
        knobs.put("sessionTtlSeconds", 400);
        knobs.put("sessionMaxSeconds", 1200);
        knobs.put("maxJoinsPerSecond", 300);
        knobs.put("proofOfWorkDifficulty", 2000);

        Http.Response patched = patch(id, knobs);

        assertThat(patched.status()).as(patched.body()).isEqualTo(200);
        JsonNode after = read(id);
        knobs.forEach((field, value) -> {
            if (value instanceof Number number) {
                assertThat(after.path(field).asDouble()).as(field).isEqualTo(number.doubleValue());
            } else {
                assertThat(after.path(field).asString()).as(field).isEqualTo(value);
            }
        });
        EventUpdateRequest pushed = this.scenario.queue.lastState(id);
        assertThat(pushed.name()).isEqualTo("Frozen rules, second night");
        assertThat(pushed.offerTtlSeconds()).as("the TTL of new offers").isEqualTo(90);
        assertThat(pushed.joinGateValue()).isEqualTo(new JoinGate(300, 2000));
        String changes = "name, maxActiveSessions 4 -> 40, maxAdmissionsPerSecond 10.0 -> 25.5, batchMax 10 -> 7,"
                + " offerTtlSeconds 30 -> 90, sessionTtlSeconds 600 -> 400, sessionMaxSeconds 1800 -> 1200,"
                + " maxJoinsPerSecond 0.0 -> 300.0, proofOfWorkDifficulty 0 -> 2000";
        assertThat(auditReasons(id)).last().isEqualTo("configuration changed: " + changes);
        assertThat(output.getOut())
                .contains("Ops configuration of event " + id + " by ops: " + changes)
                .contains("Ops PATCH /admin/events/" + id + " by ops (admin): 200");
    }

    @Test
    void theEventsNameAndAfterPurchaseArePushed() {
        String id = create();
        EventUpdateRequest pushed = this.scenario.queue.lastState(id);
        assertThat(pushed.name()).isEqualTo("Frozen rules");
        assertThat(pushed.afterPurchaseValue().name()).isEqualTo("RELEASE");
        assertThat(pushed.soldOutCategoriesValue()).isEmpty();

        String keep = Scenario.eventId("keep");
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("eventId", keep);
        body.put("name", "Keeps its buyers");
        body.put("maxActiveSessions", 4);
        body.put("maxAdmissionsPerSecond", 10);
        body.put("afterPurchase", "KEEP");
        assertThat(this.ops.post("/admin/events", Http.json(body)).status()).isEqualTo(201);
        assertThat(this.scenario.queue.lastState(keep).afterPurchase()).isEqualTo("KEEP");
        assertThat(this.scenario.queue.lastState(keep).name()).isEqualTo("Keeps its buyers");
    }
}
