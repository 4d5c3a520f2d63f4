package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;

/**
 * Schedules (docs/operating/schedules-and-pauses.md) applied by the ticker at their times on the test clock, through
 * the ops API: planned pauses, queue-all and open windows, the closing time, and bad schedules refused whole.
 */
@CoordinatorTest
class ScheduleTests {

    @Autowired
    Scenario scenario;

    @Autowired
    EventStatePublisher publisher;

    Http ops;

    String eventId;

    @BeforeEach
    void setUp() {
        this.ops = this.scenario.ops();
        this.eventId = this.scenario.openNewEvent(
                "sched",
                Scenario.config(100, 100, 100, 60, 300, 900, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        this.scenario.tick(this.eventId, Duration.ofSeconds(1)); // the draw
    }

    private static Map<String, Object> window(String kind, Instant startsAt, Instant endsAt, String reason) {
        Map<String, Object> w = new LinkedHashMap<>();
        w.put("kind", kind);
        w.put("startsAt", startsAt == null ? null : startsAt.toString());
        w.put("endsAt", endsAt == null ? null : endsAt.toString());
        w.put("reason", reason);
        return w;
    }

    private Http.Response put(Instant closesAt, List<Map<String, Object>> windows, String reason) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("closesAt", closesAt == null ? null : closesAt.toString());
        body.put("windows", windows);
        body.put("reason", reason);
        return this.ops.send("PUT", "/admin/events/" + this.eventId + "/schedule", Http.json(body));
    }

    private JsonNode schedule() {
        Http.Response r = this.ops.get("/admin/events/" + this.eventId + "/schedule");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r.json();
    }

    private Event event() {
        return this.scenario.management.get(EventId.of(this.eventId));
    }

    private long offered() {
        return this.scenario.grants.count(EventId.of(this.eventId)).offered();
    }

    private List<String> changes() {
        List<String> out = new ArrayList<>();
        schedule()
                .path("changes")
                .forEach(c -> out.add(c.path("change").asString() + " "
                        + c.path("windowKind").asString("") + " "
                        + c.path("actor").asString() + ": "
                        + c.path("reason").asString()));
        return out;
    }

    @Test
    void aPlannedPauseStartsAndEndsAtItsTimesAndThePageIsToldWhyAndUntilWhen() {
        Instant start = this.scenario.now().plusSeconds(5);
        Instant end = start.plusSeconds(10);
        Http.Response set = put(null, List.of(window("PAUSE", start, end, "Lunch break")), "planned break");
        assertThat(set.status()).as(set.body()).isEqualTo(200);

        this.scenario.tick(this.eventId, Duration.ofSeconds(5));
        assertThat(event().mode()).isEqualTo(OperatingMode.PAUSED);
        this.scenario.join(this.eventId, 3);
        this.scenario.tick(this.eventId, Duration.ofSeconds(2));
        assertThat(offered()).as("no offers during a planned pause").isZero();
        assertThat(this.publisher.hold(event()))
                .contains(AdmissionHold.of(AdmissionHold.Cause.PLANNED_PAUSE, "Lunch break", end));

        this.scenario.tick(this.eventId, Duration.ofSeconds(8));
        assertThat(event().mode()).as("resumed at the window's end").isEqualTo(OperatingMode.QUEUEING);
        this.scenario.tickUntilLive(this.eventId, 3);
        assertThat(offered()).isEqualTo(3);
        assertThat(this.publisher.hold(event())).isEmpty();
        assertThat(changes())
                .containsExactly(
                        "SET  ops: planned break (closesAt null, 1 windows)",
                        "STARTED PAUSE schedule: planned PAUSE: Lunch break",
                        "ENDED PAUSE schedule: planned PAUSE ended: Lunch break");
    }

    @Test
    void anOperatorsPauseDuringAPlannedPauseIsNotEndedByTheWindow() {
        Instant start = this.scenario.now().plusSeconds(2);
        assertThat(put(null, List.of(window("PAUSE", start, start.plusSeconds(5), "Break")), "break")
                        .status())
                .isEqualTo(200);
        this.scenario.tick(this.eventId, Duration.ofSeconds(2));
        assertThat(event().mode()).isEqualTo(OperatingMode.PAUSED);
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.QUEUEING, "ops", "back early");
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.PAUSED, "ops", "incident");
        this.scenario.tick(this.eventId, Duration.ofSeconds(6));
        assertThat(event().mode()).as("the operator's pause stands").isEqualTo(OperatingMode.PAUSED);
    }

    @Test
    void queueAllTakesJoinsButOffersNothingUntilItEndsAndKeepsTheMode() {
        Instant start = this.scenario.now().plusSeconds(1);
        Instant end = start.plusSeconds(10);
        assertThat(put(null, List.of(window("QUEUE_ALL", start, end, "Doors reopen soon")), "queue all")
                        .status())
                .isEqualTo(200);
        this.scenario.join(this.eventId, 4);
        for (int i = 0; i < 8; i++) {
            this.scenario.tick(this.eventId, Duration.ofSeconds(1));
        }
        assertThat(offered()).as("capacity is free, yet everyone queues").isZero();
        assertThat(event().mode()).isEqualTo(OperatingMode.QUEUEING);
        assertThat(this.publisher.hold(event()))
                .contains(AdmissionHold.of(AdmissionHold.Cause.PLANNED_QUEUE_ALL, "Doors reopen soon", end));
        this.scenario.tick(this.eventId, Duration.ofSeconds(3));
        this.scenario.tickUntilLive(this.eventId, 4);
        assertThat(offered()).isEqualTo(4);
    }

    @Test
    void withOpenWindowsOffersAreMadeOnlyInsideThem() {
        Instant start = this.scenario.now().plusSeconds(10);
        assertThat(put(null, List.of(window("OPEN", start, start.plusSeconds(60), "General sale")), "open hour")
                        .status())
                .isEqualTo(200);
        this.scenario.join(this.eventId, 2);
        this.scenario.tick(this.eventId, Duration.ofSeconds(2));
        this.scenario.tick(this.eventId, Duration.ofSeconds(2));
        assertThat(offered()).isZero();
        assertThat(this.publisher.hold(event()))
                .contains(AdmissionHold.of(AdmissionHold.Cause.PLANNED_QUEUE_ALL, "General sale", start));
        this.scenario.tick(this.eventId, Duration.ofSeconds(7));
        this.scenario.tickUntilLive(this.eventId, 2);
        assertThat(offered()).isEqualTo(2);
    }

    @Test
    void theClosingTimeEndsTheSaleOnceAndIsRecorded() {
        Instant closesAt = this.scenario.now().plusSeconds(5);
        assertThat(put(closesAt, List.of(), "sale closes at five").status()).isEqualTo(200);
        this.scenario.tick(this.eventId, Duration.ofSeconds(2));
        assertThat(event().phase()).isEqualTo(EventPhase.OPEN);
        this.scenario.tick(this.eventId, Duration.ofSeconds(4));
        assertThat(event().phase()).isEqualTo(EventPhase.ENDED);
        assertThat(changes()).last().asString().startsWith("CLOSED  schedule: closing time reached");
        Http.Response after = put(null, List.of(), "too late");
        assertThat(after.status()).isEqualTo(409);
    }

    @Test
    void badSchedulesAreRefusedWholeWithAProblemNamingTheFault() {
        Instant t = this.scenario.now().plusSeconds(60);
        assertThat(put(null, List.of(window("PAUSE", t, t.plusSeconds(60), "Kept")), "first")
                        .status())
                .isEqualTo(200);
        record Bad(String why, Instant closesAt, List<Map<String, Object>> windows, String reason, String says) {}
        List<Map<String, Object>> many = new ArrayList<>();
        for (int i = 0; i < 51; i++) {
            many.add(window("PAUSE", t.plusSeconds(i * 10L), t.plusSeconds(i * 10L + 5), "w" + i));
        }
        List<Bad> bads = List.of(
                new Bad(
                        "overlap",
                        null,
                        List.of(
                                window("PAUSE", t, t.plusSeconds(60), "a"),
                                window("QUEUE_ALL", t.plusSeconds(30), t.plusSeconds(90), "b")),
                        "r",
                        "overlap"),
                new Bad("end before start", null, List.of(window("PAUSE", t, t, "a")), "r", "after its startsAt"),
                new Bad("no reason", null, List.of(window("PAUSE", t, t.plusSeconds(5), " ")), "r", "reason"),
                new Bad("no kind", null, List.of(window(null, t, t.plusSeconds(5), "a")), "r", "kind"),
                new Bad(
                        "after closing",
                        t.plusSeconds(10),
                        List.of(window("PAUSE", t, t.plusSeconds(60), "a")),
                        "r",
                        "closesAt"),
                new Bad("closing past", this.scenario.now().minusSeconds(1), List.of(), "r", "past"),
                new Bad("too many", null, many, "r", "at most 50"));
        for (Bad bad : bads) {
            Http.Response r = put(bad.closesAt(), bad.windows(), bad.reason());
            assertThat(r.status()).as(bad.why() + ": " + r.body()).isEqualTo(400);
            assertThat(r.problemType()).as(bad.why()).endsWith("invalid-schedule");
            assertThat(r.json().path("detail").asString()).as(bad.why()).contains(bad.says());
        }
        Http.Response noReason = put(null, List.of(), null);
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.problemType()).endsWith("malformed-request");
        JsonNode kept = schedule();
        assertThat(kept.path("windows")).hasSize(1);
        assertThat(kept.path("windows").get(0).path("reason").asString()).isEqualTo("Kept");
        assertThat(kept.path("changes"))
                .as("only the accepted change is recorded")
                .hasSize(1);
    }

    @Test
    void windowsOfAScheduledEventStartAtOrAfterItsOpening() {
        String id = Scenario.eventId("sched-pre");
        Instant opensAt = this.scenario.now().plusSeconds(3600);
        Map<String, Object> create = new LinkedHashMap<>();
        create.put("eventId", id);
        create.put("name", "Later");
        create.put("opensAt", opensAt.toString());
        assertThat(this.ops.post("/admin/events", Http.json(create)).status()).isEqualTo(201);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("windows", List.of(window("PAUSE", opensAt.minusSeconds(60), opensAt.plusSeconds(60), "early")));
        body.put("reason", "r");
        Http.Response r = this.ops.send("PUT", "/admin/events/" + id + "/schedule", Http.json(body));
        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.json().path("detail").asString()).contains("opensAt");
    }
}
