package dev.waitroom.coordinator.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The regions of an event in the ops API, over real HTTP and PostgreSQL: budgets and their use as the ledger has them,
 * draining (a drained region's next renewal shrinks it to its live grants and it offers no more), audited; bad input is
 * a problem and changes nothing.
 */
@CoordinatorTest
class RegionAdminTests {

    /** Entry ids of the candidates made by hand, unique in the JVM as the queue's are in an event. */
    private static final AtomicLong ENTRIES = new AtomicLong();

    private static final Duration GRACE = Duration.ofSeconds(10);

    @Autowired
    Scenario scenario;

    @Autowired
    Leases leases;

    @Autowired
    Grants grants;

    @Autowired
    RegionBudgets budgets;

    @Autowired
    JdbcClient jdbc;

    @Test
    void budgetsUseAndDrainingAreVisibleAndAudited() {
        String eventId = this.scenario.openNewEvent(
                "regions",
                Scenario.config(30, 100, 10, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        Region west = new Region("west");
        Region east = new Region("east");
        FencingGeneration westGen = lease(west, eventId);
        FencingGeneration eastGen = lease(east, eventId);
        // west leases first and, alone, is owed everything; east finds nothing free; once west has read east's
        // waiting count (west 300, east 100) it gives back all but 3/4 of 30, and east takes its quarter
        assertThat(renew(west, eventId, westGen, 300).slots()).isEqualTo(30);
        assertThat(renew(east, eventId, eastGen, 100).slots()).isZero();
        assertThat(renew(west, eventId, westGen, 300).slots()).isEqualTo(22);
        assertThat(renew(east, eventId, eastGen, 100).slots()).isEqualTo(7);
        assertThat(offer(west, eventId, westGen, 5)).isEqualTo(5);

        Http ops = this.scenario.ops();
        JsonNode view = ops.get("/admin/events/" + eventId + "/regions").json();
        assertThat(view.get("ceiling").asInt()).isEqualTo(30);
        assertThat(view.get("held").asLong()).isEqualTo(29);
        JsonNode westView = region(view, "west");
        assertThat(westView.get("slots").asInt()).isEqualTo(22);
        assertThat(westView.get("used").asLong()).isEqualTo(5);
        assertThat(westView.get("waiting").asLong()).isEqualTo(300);
        assertThat(westView.get("leaseLive").asBoolean()).isTrue();
        assertThat(westView.get("frozen").asBoolean()).isFalse();

        Http.Response drained = ops.post(
                "/admin/events/" + eventId + "/regions/west/drain", Http.json(Map.of("reason", "maintenance")));
        assertThat(drained.status()).as(drained.body()).isEqualTo(200);
        assertThat(region(drained.json(), "west").get("draining").asBoolean()).isTrue();
        // the drained region's next renewal keeps only its live grants; it can offer no more
        assertThat(renew(west, eventId, westGen, 300).slots()).isEqualTo(5);
        assertThat(offer(west, eventId, westGen, 1)).isZero();
        // east's next renewal takes what west returned
        assertThat(renew(east, eventId, eastGen, 100).slots()).isEqualTo(25);

        Http.Response resumed =
                ops.post("/admin/events/" + eventId + "/regions/west/resume", Http.json(Map.of("reason", "done")));
        assertThat(region(resumed.json(), "west").get("draining").asBoolean()).isFalse();
        List<String> audit = this.jdbc
                .sql("select to_value || ':' || from_value || ':' || reason from mode_changes"
                        + " where event_id = :e and kind = 'REGION' order by id")
                .param("e", eventId)
                .query(String.class)
                .list();
        assertThat(audit).containsExactly("DRAINING:west:maintenance", "RESUMED:west:done");
    }

    @Test
    void badInputIsAProblemAndChangesNothing() {
        String eventId = this.scenario.openNewEvent(
                "regions",
                Scenario.config(10, 100, 10, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        Http ops = this.scenario.ops();
        String reason = Http.json(Map.of("reason", "x"));
        for (String bad : List.of("WEST", "-west", "a_b", "x".repeat(33))) {
            Http.Response r = ops.post("/admin/events/" + eventId + "/regions/" + bad + "/drain", reason);
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.problemType()).endsWith("malformed-request");
        }
        Http.Response noReason = ops.post("/admin/events/" + eventId + "/regions/west/drain", "{}");
        assertThat(noReason.status()).isEqualTo(400);
        Http.Response unknown = ops.post("/admin/events/nope-123/regions/west/drain", reason);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(ops.get("/admin/events/" + eventId + "/regions").json().get("regions"))
                .isEmpty();
        Http.Response anonymous = this.scenario.http().get("/admin/events/" + eventId + "/regions");
        assertThat(anonymous.status()).isEqualTo(401);
    }

    private FencingGeneration lease(Region region, String eventId) {
        return this.leases
                .acquireOrRenew(region, EventId.of(eventId), region + "-gate", Duration.ofSeconds(5))
                .orElseThrow();
    }

    private RegionBudgets.Renewal renew(Region region, String eventId, FencingGeneration gen, long waiting) {
        return this.budgets
                .renew(region, EventId.of(eventId), region + "-gate", gen, waiting, GRACE)
                .orElseThrow();
    }

    private int offer(Region region, String eventId, FencingGeneration gen, int n) {
        List<Candidate> batch = IntStream.range(0, n)
                .mapToObj(i -> new Candidate(EntryId.ofSequence(ENTRIES.incrementAndGet()), VisitorId.random(), i))
                .toList();
        return this.grants
                .allocate(
                        region,
                        EventId.of(eventId),
                        region + "-gate",
                        gen,
                        batch,
                        this.scenario.now(),
                        this.scenario.now().plusSeconds(30))
                .size();
    }

    private static JsonNode region(JsonNode view, String name) {
        for (JsonNode r : view.get("regions")) {
            if (r.get("region").asString().equals(name)) {
                return r;
            }
        }
        throw new AssertionError("no region " + name + " in " + view);
    }
}
