package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.AllAtOnce;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * Sold out, pause and sale rounds (docs/design/sale-rules/sold-out-pause-rounds.md) against real PostgreSQL and Redis, over
 * HTTP where the answer's shape matters: sold out withdraws every outstanding offer in the step that changes the mode,
 * also under claims racing it; a pause holds offers and gives the pause back to their deadline; a new round moves the
 * sale generation on, ends the earlier round's sessions and lets offers flow again.
 */
@CoordinatorTest
class SoldOutPauseRoundTests {

    private static final String ADMITTED = "admitted";

    @Autowired
    Scenario scenario;

    @Autowired
    Admissions admissions;

    @Autowired
    SessionRegistry registry;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    MeterRegistry meters;

    Http http;

    Http ops;

    String eventId;

    @BeforeEach
    void setUp() {
        this.http = this.scenario.http();
        this.ops = this.scenario.ops();
        this.eventId = Scenario.eventId("rules");
    }

    private List<String> offered(String event, int ceiling, int visitors, int offerTtl) {
        this.scenario.openEvent(
                event,
                Scenario.config(
                        ceiling,
                        1000,
                        100,
                        offerTtl,
                        300,
                        600,
                        ExpiredOfferPolicy.REQUEUE_ONCE,
                        AfterPurchase.RELEASE));
        List<String> joined = this.scenario.join(event, visitors);
        assertThat(this.scenario
                        .tickUntilLive(event, Math.min(ceiling, visitors))
                        .live())
                .isEqualTo(Math.min(ceiling, visitors));
        return joined;
    }

    private Http.Response claim(String visitor) {
        return this.http.post("/events/" + this.eventId + "/admission/claim", null, Headers.VISITOR, visitor);
    }

    private Http.Response admin(String action, String body) {
        return this.ops.post("/admin/events/" + this.eventId + action, body);
    }

    private long grants(String event, GrantState state) {
        return this.jdbc
                .sql("select count(*) from grants where event_id = :e and state = :s")
                .param("e", event)
                .param("s", state.name())
                .query(Long.class)
                .single();
    }

    private long released(String event, ReleaseReason reason) {
        return this.jdbc
                .sql("select count(*) from grants where event_id = :e and release_reason = :r")
                .param("e", event)
                .param("r", reason.name())
                .query(Long.class)
                .single();
    }

    private Grant latest(String event, String visitor) {
        return this.scenario
                .grants
                .findLatest(EventId.of(event), new VisitorId(visitor))
                .orElseThrow();
    }

    private FakeQueueEntry.State queueState(String event, String visitor) {
        return this.scenario.queue.entry(event, visitor).state();
    }

    @Test
    void soldOutWithdrawsEveryOutstandingOfferAndEveryClaimAnswersSoldOut() {
        List<String> visitors = offered(this.eventId, 4, 6, 60);
        List<String> holders = visitors.stream()
                .filter(v -> this.scenario
                        .grants
                        .findLive(EventId.of(this.eventId), new VisitorId(v))
                        .isPresent())
                .toList();
        String shopper = holders.get(0);
        assertThat(claim(shopper).status()).isEqualTo(200);
        Map<String, Long> places = holders.stream()
                .collect(Collectors.toMap(
                        h -> h, h -> this.scenario.queue.entry(this.eventId, h).orderKey()));

        Http.Response soldOut =
                this.http.post("/internal/events/" + this.eventId + "/sold-out", "{\"reason\":\"the last seat sold\"}");

        assertThat(soldOut.status()).isEqualTo(200);
        assertThat(soldOut.json().path("mode").asString()).isEqualTo("SOLD_OUT");
        assertThat(grants(this.eventId, GrantState.OFFERED)).isZero();
        assertThat(released(this.eventId, ReleaseReason.SOLD_OUT)).isEqualTo(3);
        LiveCounts live = this.scenario.grants.count(EventId.of(this.eventId));
        assertThat(live.offered()).isZero();
        assertThat(live.active()).as("the shopper inside was counted and stays").isEqualTo(1);
        assertThat(this.scenario.queue.lastState(this.eventId).mode()).isEqualTo("SOLD_OUT");
        for (String holder : holders.subList(1, holders.size())) {
            FakeQueueEntry entry = this.scenario.queue.entry(this.eventId, holder);
            assertThat(entry.state())
                    .as("a withdrawn offer's entry waits again: no offer is shown under SOLD_OUT")
                    .isEqualTo(FakeQueueEntry.State.WAITING);
            assertThat(entry.orderKey()).as("in its own place").isEqualTo(places.get(holder));
            assertThat(entry.requeues()).as("no requeue spent").isZero();
            Http.Response refused = claim(holder);
            assertThat(refused.status()).isEqualTo(409);
            assertThat(refused.contentType()).startsWith("application/problem+json");
            assertThat(refused.problemType())
                    .isEqualTo(ProblemType.SOLD_OUT.type().toString());
        }
        Http.Response repeat = claim(shopper);
        assertThat(repeat.status()).as("any claim while SOLD_OUT").isEqualTo(409);
        assertThat(repeat.problemType()).endsWith("/sold-out");

        for (int i = 0; i < 5; i++) {
            assertThat(this.scenario.tick(this.eventId, Duration.ofSeconds(1))).isZero();
        }
        assertThat(grants(this.eventId, GrantState.OFFERED)).isZero();
        assertThat(grants(this.eventId, GrantState.ACTIVE)).isEqualTo(1);
    }

    /**
     * Every claim racing the sold-out declaration is either admitted (and counted as ACTIVE) or refused with
     * {@code sold-out}; afterwards no offer is claimable and the counts are exact. Several events, so the race lands
     * at different points.
     */
    @Test
    void claimsRacingSoldOutAreAdmittedAndCountedOrRefusedAndNoOfferStaysClaimable() throws Exception {
        int ceiling = 24;
        int admittedOverall = 0;
        int refusedOverall = 0;
        for (int round = 0; round < 6; round++) {
            String event = Scenario.eventId("soldout-race");
            List<String> holders = offered(event, ceiling, ceiling, 60);
            Map<String, Long> outcomes = claimsRacing(
                    event, holders, OperatingMode.SOLD_OUT, "booking", "sold out during claims", round % 2 == 0);
            long admitted = outcomes.getOrDefault(ADMITTED, 0L);
            long refused = outcomes.getOrDefault(ProblemType.SOLD_OUT.slug(), 0L);
            assertThat(admitted + refused)
                    .as("every claim admitted or refused as sold out: %s", outcomes)
                    .isEqualTo(ceiling);
            assertThat(grants(event, GrantState.ACTIVE)).isEqualTo(admitted);
            assertThat(grants(event, GrantState.OFFERED)).isZero();
            assertThat(released(event, ReleaseReason.SOLD_OUT)).isEqualTo(refused);
            LiveCounts live = this.scenario.grants.count(EventId.of(event));
            assertThat(live.active()).isEqualTo(admitted);
            assertThat(live.offered()).isZero();
            for (String holder : holders) {
                Grant grant = latest(event, holder);
                if (grant.state() == GrantState.ACTIVE) {
                    assertThat(this.registry.isLive(EventId.of(event), grant.sessionId()))
                            .isTrue();
                    assertThat(queueState(event, holder)).isEqualTo(FakeQueueEntry.State.ACTIVE);
                } else {
                    assertThat(grant.releaseReason()).isEqualTo(ReleaseReason.SOLD_OUT);
                    assertThat(queueState(event, holder)).isEqualTo(FakeQueueEntry.State.WAITING);
                }
                assertThat(claimQuietly(event, holder))
                        .as("no claim is admitted after sold out")
                        .isEqualTo(ProblemType.SOLD_OUT.slug());
            }
            assertThat(grants(event, GrantState.ACTIVE)).isEqualTo(admitted);
            admittedOverall += (int) admitted;
            refusedOverall += (int) refused;
        }
        System.out.printf(
                "claims racing sold out: %d admitted before the mode change, %d refused as sold-out%n",
                admittedOverall, refusedOverall);
    }

    /**
     * Every holder claims at once while the mode changes to {@code mode}, the change released first or among the
     * claims; answers how many claims ended each way ({@link #ADMITTED} or a problem slug).
     */
    private Map<String, Long> claimsRacing(
            String event, List<String> holders, OperatingMode mode, String actor, String reason, boolean changeFirst)
            throws Exception {
        List<Callable<String>> calls = new ArrayList<>();
        for (String holder : holders) {
            calls.add(() -> claimQuietly(event, holder));
        }
        calls.add(changeFirst ? 0 : calls.size() / 2, () -> {
            this.scenario.management.changeMode(EventId.of(event), mode, actor, reason);
            return "declared";
        });
        return AllAtOnce.call(calls).stream()
                .filter(result -> !result.equals("declared"))
                .collect(Collectors.groupingBy(r -> r, Collectors.counting()));
    }

    private String claimQuietly(String event, String visitor) {
        try {
            this.admissions.claim(EventId.of(event), new VisitorId(visitor));
            return ADMITTED;
        } catch (CoordinatorException ex) {
            return ex.problem().slug();
        }
    }

    /**
     * Claims racing a pause: each is admitted before the mode change (and counted) or answered {@code admission-paused};
     * the offers not claimed stay OFFERED through the pause, no claim is admitted while it lasts, and after resume every
     * held offer can be claimed. Several events, so the pause lands at different points among the claims.
     */
    @Test
    void claimsRacingAPauseAreAdmittedOrHeldAndEveryHeldOfferIsClaimableAfterResume() throws Exception {
        int ceiling = 16;
        for (int round = 0; round < 4; round++) {
            String event = Scenario.eventId("pause-race");
            List<String> holders = offered(event, ceiling, ceiling, 60);
            Map<String, Long> outcomes = claimsRacing(
                    event, holders, OperatingMode.PAUSED, "ops", "payment provider incident", round % 2 == 0);
            long admitted = outcomes.getOrDefault(ADMITTED, 0L);
            long held = outcomes.getOrDefault(ProblemType.ADMISSION_PAUSED.slug(), 0L);
            assertThat(admitted + held)
                    .as("every claim admitted or held as paused: %s", outcomes)
                    .isEqualTo(ceiling);
            assertThat(grants(event, GrantState.ACTIVE)).isEqualTo(admitted);
            assertThat(grants(event, GrantState.OFFERED))
                    .as("no held offer is lost to the pause")
                    .isEqualTo(held);
            LiveCounts live = this.scenario.grants.count(EventId.of(event));
            assertThat(live.active() + live.offered()).isEqualTo(ceiling);
            for (String holder : holders) {
                if (latest(event, holder).state() == GrantState.OFFERED) {
                    assertThat(claimQuietly(event, holder))
                            .as("no claim is admitted while paused")
                            .isEqualTo(ProblemType.ADMISSION_PAUSED.slug());
                }
            }

            this.scenario.management.changeMode(EventId.of(event), OperatingMode.QUEUEING, "ops", "provider recovered");
            for (String holder : holders) {
                if (latest(event, holder).state() == GrantState.OFFERED) {
                    assertThat(claimQuietly(event, holder)).isEqualTo(ADMITTED);
                }
            }
            assertThat(grants(event, GrantState.ACTIVE)).isEqualTo(ceiling);
        }
    }

    @Test
    void pauseHoldsOffersAndResumeGivesThePauseBackToTheirDeadline() {
        List<String> holders = offered(this.eventId, 5, 3, 30);
        this.scenario.join(this.eventId, 2); // capacity and visitors for more offers, none while paused
        String holder = holders.get(0);
        Instant deadline = latest(this.eventId, holder).offerExpiresAt();

        assertThat(admin("/pause", "{\"reason\":\"payment provider incident\"}").status())
                .isEqualTo(200);
        Http.Response held = claim(holder);
        assertThat(held.status()).isEqualTo(503);
        assertThat(held.problemType())
                .isEqualTo(ProblemType.ADMISSION_PAUSED.type().toString());
        assertThat(held.header("Retry-After")).isEqualTo("10");
        assertThat(held.json().path("status").asInt()).isEqualTo(503);

        Duration pause = Duration.ofSeconds(75); // far past the 30 s deadline
        for (int i = 0; i < 15; i++) {
            assertThat(this.scenario.tick(this.eventId, Duration.ofSeconds(5)))
                    .as("no new offer while paused")
                    .isZero();
        }
        assertThat(this.scenario.now()).isAfter(deadline);
        assertThat(grants(this.eventId, GrantState.OFFERED))
                .as("the pause holds every offer past its deadline")
                .isEqualTo(3);
        assertThat(claim(holder).status()).isEqualTo(503);

        assertThat(admin("/resume", "{\"reason\":\"provider recovered\"}").status())
                .isEqualTo(200);

        for (String h : holders) {
            Instant extended = latest(this.eventId, h).offerExpiresAt();
            assertThat(extended).as("deadline moved on by the pause").isAfter(this.scenario.now());
            assertThat(this.scenario.queue.entry(this.eventId, h).offerExpiresAt())
                    .as("the queue was sent the new deadline, which the visitor's status shows")
                    .isEqualTo(extended);
        }
        assertThat(latest(this.eventId, holder).offerExpiresAt()).isEqualTo(deadline.plus(pause));
        Http.Response admitted = claim(holder);
        assertThat(admitted.status()).isEqualTo(200);
        assertThat(admitted.json().path("state").asString()).isEqualTo("ACTIVE");
        assertThat(this.scenario.tickUntilLive(this.eventId, 5).live())
                .as("offers flow again")
                .isEqualTo(5);
    }

    @Test
    void aSecondPauseGivesBackOnlyItsOwnLengthAndBypassEndsAPauseToo() {
        List<String> holders = offered(this.eventId, 2, 2, 30);
        Instant deadline = latest(this.eventId, holders.get(0)).offerExpiresAt();
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.PAUSED, "ops", "first");
        this.scenario.clock.advance(Duration.ofSeconds(20));
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.QUEUEING, "ops", "back");
        this.scenario.clock.advance(Duration.ofSeconds(5));
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.PAUSED, "ops", "second");
        this.scenario.clock.advance(Duration.ofSeconds(7));
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.BYPASS, "ops", "let them in");

        assertThat(latest(this.eventId, holders.get(0)).offerExpiresAt()).isEqualTo(deadline.plusSeconds(27));
        assertThat(this.admissions
                        .claim(EventId.of(this.eventId), new VisitorId(holders.get(0)))
                        .state())
                .isEqualTo(GrantState.ACTIVE);
    }

    @Test
    void theQueueHearsResumedDeadlinesOnceItIsBackIfItWasDownAtResume() {
        List<String> holders = offered(this.eventId, 3, 3, 30);
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.PAUSED, "ops", "incident");
        this.scenario.clock.advance(Duration.ofSeconds(40));
        this.scenario.queue.unavailable(true);
        this.scenario.management.changeMode(EventId.of(this.eventId), OperatingMode.QUEUEING, "ops", "recovered");
        Instant extended = latest(this.eventId, holders.get(0)).offerExpiresAt();
        assertThat(this.scenario.queue.entry(this.eventId, holders.get(0)).offerExpiresAt())
                .as("not heard yet")
                .isBefore(extended);

        this.scenario.queue.unavailable(false);
        this.scenario.tick(this.eventId, Duration.ofSeconds(1));

        for (String h : holders) {
            assertThat(this.scenario.queue.entry(this.eventId, h).offerExpiresAt())
                    .as("the outbox sent the extended offer again")
                    .isEqualTo(latest(this.eventId, h).offerExpiresAt());
        }
        assertThat(grants(this.eventId, GrantState.OFFERED)).isEqualTo(3);
    }

    @Test
    void aRoundOffersTheWithdrawnHoldersAgainInTheirPlacesBeforeLaterJoiners() {
        List<String> visitors = offered(this.eventId, 3, 5, 60);
        List<String> holders = visitors.stream()
                .filter(v -> this.scenario
                        .grants
                        .findLive(EventId.of(this.eventId), new VisitorId(v))
                        .isPresent())
                .toList();
        assertThat(holders).hasSize(3);
        assertThat(admin("/sold-out", "{\"reason\":\"gone\"}").status()).isEqualTo(200);
        for (String h : holders) {
            assertThat(queueState(this.eventId, h)).isEqualTo(FakeQueueEntry.State.WAITING);
        }

        assertThat(admin("/rounds", "{\"reason\":\"cancellations came back\"}").status())
                .isEqualTo(200);
        List<String> later = this.scenario.join(this.eventId, 2);
        assertThat(this.scenario.tickUntilLive(this.eventId, 3).live()).isEqualTo(3);

        for (String h : holders) {
            Grant again = latest(this.eventId, h);
            assertThat(again.state()).as("offered again in the new round").isEqualTo(GrantState.OFFERED);
            assertThat(again.saleGeneration()).isEqualTo(2);
            assertThat(queueState(this.eventId, h)).isEqualTo(FakeQueueEntry.State.OFFERED);
        }
        for (String v : visitors) {
            if (!holders.contains(v)) {
                assertThat(queueState(this.eventId, v)).isEqualTo(FakeQueueEntry.State.WAITING);
            }
        }
        for (String v : later) {
            assertThat(this.scenario.grants.findLatest(EventId.of(this.eventId), new VisitorId(v)))
                    .isEmpty();
        }
        Http.Response admitted = claim(holders.get(1));
        assertThat(admitted.status()).as("the new offer is claimable").isEqualTo(200);
    }

    @Test
    void aRoundIsRefusedUnlessTheEventIsSoldOut() {
        offered(this.eventId, 2, 2, 60);
        Http.Response queueing = admin("/rounds", "{\"reason\":\"seats returned\"}");
        assertThat(queueing.status()).isEqualTo(409);
        assertThat(queueing.problemType()).endsWith("/invalid-transition");

        admin("/pause", "{\"reason\":\"incident\"}");
        assertThat(admin("/rounds", "{\"reason\":\"seats returned\"}").status()).isEqualTo(409);

        admin("/sold-out", "{\"reason\":\"gone\"}");
        Http.Response resume = admin("/resume", "{\"reason\":\"seats returned\"}");
        assertThat(resume.status()).as("SOLD_OUT is left only through a round").isEqualTo(409);
        assertThat(resume.problemType()).endsWith("/invalid-transition");
        assertThat(admin("/rounds", "{}").status()).as("a round needs a reason").isEqualTo(400);

        admin("/end", "{\"reason\":\"season over\"}");
        Http.Response ended = admin("/rounds", "{\"reason\":\"seats returned\"}");
        assertThat(ended.status()).isEqualTo(409);
        assertThat(ended.problemType()).endsWith("/invalid-transition");
        assertThat(this.scenario.management.get(EventId.of(this.eventId)).saleGeneration())
                .isEqualTo(1);
    }

    @Test
    void aRoundMovesTheGenerationOnEndsTheEarlierRoundsSessionsAndOffersFlowAgain() {
        List<String> visitors = offered(this.eventId, 2, 5, 60);
        List<String> holders = visitors.stream()
                .filter(v -> this.scenario
                        .grants
                        .findLive(EventId.of(this.eventId), new VisitorId(v))
                        .isPresent())
                .toList();
        List<String> waiting =
                visitors.stream().filter(v -> !holders.contains(v)).toList();
        String shopper = holders.get(0);
        JsonNode session = claim(shopper).json();
        String oldToken = session.path("token").asString();
        SessionId oldSession = SessionId.parse(session.path("sessionId").asString());
        assertThat(admin("/sold-out", "{\"reason\":\"gone\"}").status()).isEqualTo(200);

        Http.Response opened = admin("/rounds", "{\"reason\":\"cancellations came back\"}");

        assertThat(opened.status()).isEqualTo(200);
        assertThat(opened.json().path("saleGeneration").asLong()).isEqualTo(2);
        assertThat(opened.json().path("mode").asString()).isEqualTo("QUEUEING");
        assertThat(opened.json().path("announcement").asString()).isEqualTo(EventManagement.NEW_ROUND_ANNOUNCEMENT);
        assertThat(this.scenario.queue.lastState(this.eventId).saleGeneration())
                .as("the push carries the new generation")
                .isEqualTo(2L);
        assertThat(this.scenario.queue.lastState(this.eventId).announcement())
                .isEqualTo(EventManagement.NEW_ROUND_ANNOUNCEMENT);

        Grant old = latest(this.eventId, shopper);
        assertThat(old.state()).isEqualTo(GrantState.RELEASED);
        assertThat(old.releaseReason()).isEqualTo(ReleaseReason.NEW_ROUND);
        assertThat(this.registry.isLive(EventId.of(this.eventId), oldSession)).isFalse();
        assertThat(queueState(this.eventId, shopper)).isEqualTo(FakeQueueEntry.State.COMPLETED);
        Http.Response renew = this.http.post(
                "/events/" + this.eventId + "/shopping-session/renew",
                null,
                Headers.VISITOR,
                shopper,
                "Authorization",
                "Bearer " + oldToken);
        assertThat(renew.status()).isEqualTo(403);
        assertThat(renew.problemType())
                .isEqualTo(ProblemType.ADMISSION_OLD_GENERATION.type().toString());
        for (String w : waiting) {
            assertThat(queueState(this.eventId, w))
                    .as("waiting visitors keep their places")
                    .isEqualTo(FakeQueueEntry.State.WAITING);
        }

        assertThat(this.scenario.tickUntilLive(this.eventId, 2).live()).isEqualTo(2);
        String next = waiting.get(0);
        Grant offer = latest(this.eventId, next);
        assertThat(offer.saleGeneration()).isEqualTo(2);
        JsonNode admitted = claim(next).json();
        Http.Response renewed = this.http.post(
                "/events/" + this.eventId + "/shopping-session/renew",
                null,
                Headers.VISITOR,
                next,
                "Authorization",
                "Bearer " + admitted.path("token").asString());
        assertThat(renewed.status()).as("the new round's token works").isEqualTo(200);
        long rounds = this.jdbc
                .sql(
                        "select count(*) from mode_changes where event_id = :e and reason like 'new round: sale generation 2:%'")
                .param("e", this.eventId)
                .query(Long.class)
                .single();
        assertThat(rounds).as("audited").isEqualTo(1);
    }

    private JsonNode liveView() {
        return this.ops.get("/admin/events/" + this.eventId).json().path("live");
    }

    private double checkoutsCounted() {
        Counter counter = this.meters
                .find("waitroom.coordinator.checkouts")
                .tag("event", this.eventId)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    /**
     * Issue #26: the live view's checkouts were the queue's COMPLETED entries, and a session a new round ends completes
     * its entry. A checkout is a purchase booking reported, nothing else; the round's ends are counted apart.
     */
    @Test
    void aSessionEndedByANewRoundIsNoCheckoutAndAPurchaseIsOne() {
        List<String> visitors = offered(this.eventId, 1, 3, 60);
        String first = visitors.stream()
                .filter(v -> this.scenario
                        .grants
                        .findLive(EventId.of(this.eventId), new VisitorId(v))
                        .isPresent())
                .findFirst()
                .orElseThrow();
        assertThat(claim(first).status()).isEqualTo(200);
        admin("/sold-out", "{\"reason\":\"gone\"}");
        assertThat(admin("/rounds", "{\"reason\":\"returns\"}").status()).isEqualTo(200);
        assertThat(latest(this.eventId, first).releaseReason()).isEqualTo(ReleaseReason.NEW_ROUND);
        assertThat(queueState(this.eventId, first))
                .as("the queue entry completes, as before")
                .isEqualTo(FakeQueueEntry.State.COMPLETED);

        JsonNode afterRound = liveView();
        assertThat(afterRound.path("checkouts").asLong())
                .as("a round's end is no purchase")
                .isZero();
        assertThat(afterRound.path("endedByNewRound").asLong()).isEqualTo(1);
        assertThat(afterRound.path("queue").path("completed").asLong()).isEqualTo(1);
        assertThat(checkoutsCounted()).isZero();

        assertThat(this.scenario.tickUntilLive(this.eventId, 1).live()).isEqualTo(1);
        String buyer = visitors.stream()
                .filter(v -> this.scenario
                        .grants
                        .findLive(EventId.of(this.eventId), new VisitorId(v))
                        .isPresent())
                .findFirst()
                .orElseThrow();
        SessionId session =
                SessionId.parse(claim(buyer).json().path("sessionId").asString());
        this.admissions.purchaseCompleted(EventId.of(this.eventId), session, "order-1");
        this.admissions.purchaseCompleted(EventId.of(this.eventId), session, "order-1");

        JsonNode afterPurchase = liveView();
        assertThat(afterPurchase.path("checkouts").asLong())
                .as("one purchase, reported twice")
                .isEqualTo(1);
        assertThat(afterPurchase.path("endedByNewRound").asLong()).isEqualTo(1);
        assertThat(afterPurchase.path("queue").path("completed").asLong()).isEqualTo(2);
        assertThat(checkoutsCounted()).isEqualTo(1);
    }

    @Test
    void aRoundTellsWaitingVisitorsWhatOpsSay() {
        offered(this.eventId, 1, 3, 60);
        admin("/sold-out", "{\"reason\":\"gone\"}");

        Http.Response opened = admin(
                "/rounds", Http.json(Map.of("reason", "returns", "announcement", "Balcony seats are back on sale")));

        assertThat(opened.status()).isEqualTo(200);
        assertThat(this.scenario.queue.lastState(this.eventId).announcement())
                .isEqualTo("Balcony seats are back on sale");
        // a second sale-out and round: the generation keeps counting
        admin("/sold-out", "{\"reason\":\"gone again\"}");
        assertThat(admin("/rounds", "{\"reason\":\"more returns\"}")
                        .json()
                        .path("saleGeneration")
                        .asLong())
                .isEqualTo(3);
    }
}
