package dev.waitroom.coordinator.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.grants.Admission;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.SessionRegistry;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.coordinator.tick.AdmissionTicker;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.test.context.TestPropertySource;

/**
 * A coordinator started as the gate of region {@code west} (its own Spring context, real PostgreSQL): its ticker
 * offers only within the budget it leases, never what another region holds; when the other region's gate stops
 * renewing, its budget is frozen for the grace, then reconciled, and {@code west} takes the capacity at its next
 * renewal.
 */
@CoordinatorTest
@TestPropertySource(properties = {"waitroom.region.name=west", "waitroom.region.grace=300ms"})
class RegionalGateTests {

    @Autowired
    Scenario scenario;

    @Autowired
    Leases leases;

    @Autowired
    RegionBudgets budgets;

    @Autowired
    Grants grants;

    @Autowired
    Region region;

    @Autowired
    EventManagement management;

    @Autowired
    Admissions admissions;

    @Autowired
    SessionRegistry registry;

    @Autowired
    JdbcClient jdbc;

    @Test
    void aRegionalGateOffersWithinItsBudgetAndTakesAStoppedRegionsSlotsAfterTheGrace() {
        assertThat(this.region.name()).isEqualTo("west");
        String eventId = this.scenario.openNewEvent(
                "gate",
                Scenario.config(30, 1000, 50, 600, 600, 1200, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        this.scenario.join(eventId, 100);
        // east's gate leases 20 slots first, reporting nobody waiting (so west's share is everything)
        Region east = new Region("east");
        FencingGeneration eastGen = this.leases
                .acquireOrRenew(east, EventId.of(eventId), "east-gate", Duration.ofMillis(400))
                .orElseThrow();
        assertThat(this.budgets.renew(east, EventId.of(eventId), "east-gate", eastGen, 0, Duration.ofMillis(300)))
                .isPresent();
        this.jdbc
                .sql("update region_budgets set slots = 20 where event_id = :e and region = 'east'")
                .param("e", eventId)
                .update();

        AtomicLong nanos = new AtomicLong();
        AdmissionTicker west =
                this.scenario.coordinator("west-gate", Duration.ofSeconds(5), Duration.ofSeconds(1), nanos::get);
        for (int i = 0; i < 5; i++) {
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            this.scenario.tick(west, eventId, Duration.ofSeconds(1));
        }
        assertThat(this.grants.count(EventId.of(eventId)).live())
                .as("west's offers: the 10 slots east does not hold")
                .isEqualTo(10);
        assertThat(slots(eventId, "west")).isEqualTo(10);

        // east stops renewing: after its lease (400 ms) and the grace (300 ms) west reconciles and takes the rest
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            this.scenario.tick(west, eventId, Duration.ofSeconds(1));
            assertThat(this.grants.count(EventId.of(eventId)).live()).isEqualTo(30);
        });
        assertThat(slots(eventId, "east"))
                .as("east's frozen budget, reconciled to its live grants")
                .isZero();
        assertThat(slots(eventId, "west")).isEqualTo(30);

        // east's gate wakes up: its old generation is fenced off, and a new lease finds nothing free
        FencingGeneration again = this.leases
                .acquireOrRenew(east, EventId.of(eventId), "east-gate", Duration.ofSeconds(5))
                .orElseThrow();
        assertThat(again.value()).isGreaterThan(eastGen.value());
        assertThat(this.budgets.renew(east, EventId.of(eventId), "east-gate", eastGen, 50, Duration.ofMillis(300)))
                .as("a renewal under the old generation")
                .isEmpty();
        assertThat(this.budgets
                        .renew(east, EventId.of(eventId), "east-gate", again, 50, Duration.ofMillis(300))
                        .orElseThrow()
                        .slots())
                .isZero();
    }

    @Test
    void aRegionalGateDrawsItsOwnQueueWhenAnotherRegionHasAlreadyRevealedTheSeed() {
        String eventId = Scenario.eventId("draw");
        EventConfig scheduled = new EventConfig(
                "Regional pre-sale",
                Instant.now().plus(Duration.ofDays(1)),
                10,
                1000,
                10,
                Duration.ofMinutes(10),
                Duration.ofMinutes(10),
                Duration.ofMinutes(20),
                PresaleOrdering.RANDOM,
                IdentityScope.BROWSER,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                AfterPurchase.RELEASE,
                0,
                0);
        this.management.create(EventId.of(eventId), scheduled, "test");
        this.scenario.join(eventId, 5);
        // another region's gate opened the sale, drew its own queue and revealed the seed
        this.jdbc
                .sql("update events set phase = 'OPEN', seed_revealed_at = now() where event_id = :e")
                .param("e", eventId)
                .update();
        assertThat(this.scenario.queue.drawn(eventId)).isFalse();

        AtomicLong nanos = new AtomicLong();
        AdmissionTicker west =
                this.scenario.coordinator("west-gate", Duration.ofSeconds(5), Duration.ofSeconds(1), nanos::get);
        // the first tick draws west's queue and leases its budget; the rate budget fills over the next ticks
        for (int i = 0; i < 5; i++) {
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            this.scenario.tick(west, eventId, Duration.ofSeconds(1));
        }

        assertThat(this.scenario.queue.drawn(eventId))
                .as("west's own queue was drawn")
                .isTrue();
        assertThat(this.grants.count(EventId.of(eventId)).live())
                .as("and its pre-sale group offered")
                .isEqualTo(5);
    }

    /**
     * Issue #28, finding 8: the first region's draw revealed the seed while another region's queue, still SCHEDULED,
     * took pre-sale entries, so a visitor there could pick entries that rank well. West draws its own queue and offers,
     * but the seed stays secret (in the row's state and in every push) until east's queue has drawn too.
     */
    @Test
    void theSeedIsRevealedOnlyOnceEveryRegionsQueueHasDrawn() {
        String eventId = Scenario.eventId("reveal");
        EventId id = EventId.of(eventId);
        this.management.create(id, scheduledConfig(), "test");
        this.scenario.join(eventId, 5);
        // east's gate leads the event in its region too: its queue is still SCHEDULED
        assertThat(this.leases.acquireOrRenew(
                        new Region("east"), EventId.of(eventId), "east-gate", Duration.ofSeconds(5)))
                .isPresent();
        String seed = this.management.get(id).seed();

        this.management.open(id, "ops", "doors open");
        AtomicLong nanos = new AtomicLong();
        AdmissionTicker west =
                this.scenario.coordinator("west-gate", Duration.ofSeconds(5), Duration.ofSeconds(1), nanos::get);
        for (int i = 0; i < 5; i++) {
            nanos.addAndGet(Duration.ofSeconds(4).toNanos());
            this.scenario.tick(west, eventId, Duration.ofSeconds(1));
        }

        assertThat(this.management.get(id).drawn()).as("west's queue drew").isTrue();
        assertThat(this.grants.count(EventId.of(eventId)).live())
                .as("and west offers")
                .isEqualTo(5);
        assertThat(this.management.get(id).revealedSeed())
                .as("but east's queue has not drawn: the seed stays secret")
                .isNull();
        assertThat(this.scenario.queue.lastState(eventId).seed())
                .as("and no push carried it")
                .isNull();

        // east's gate draws its queue and records it, as its ticker does; west's next tick reveals the seed
        this.jdbc
                .sql("insert into queue_draws (event_id, region) values (:e, 'east')")
                .param("e", eventId)
                .update();
        nanos.addAndGet(Duration.ofSeconds(4).toNanos());
        this.scenario.tick(west, eventId, Duration.ofSeconds(1));

        assertThat(this.management.get(id).revealedSeed()).isEqualTo(seed);
        assertThat(this.scenario.queue.lastState(eventId).seed()).isEqualTo(seed);
    }

    private static EventConfig scheduledConfig() {
        return new EventConfig(
                "Regional pre-sale",
                Instant.now().plus(Duration.ofDays(1)),
                10,
                1000,
                10,
                Duration.ofMinutes(10),
                Duration.ofMinutes(10),
                Duration.ofMinutes(20),
                PresaleOrdering.RANDOM,
                IdentityScope.BROWSER,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                AfterPurchase.RELEASE,
                0,
                0);
    }

    @Test
    void aPurchaseRecordedElsewhereIsReleasedByTheSessionsOwnGateWhichHoldsItsRegistry() {
        WestSale sale = twoOfferedByWest("bought");
        String eventId = sale.eventId();
        List<String> visitors = sale.visitors();
        AtomicLong nanos = sale.nanos();
        AdmissionTicker west = sale.west();
        EventId id = EventId.of(eventId);
        Admission east = this.admissions.claim(id, new VisitorId(visitors.get(0)));
        Admission ours = this.admissions.claim(id, new VisitorId(visitors.get(1)));
        // the first session is east's (its gate made the offer; its registry is in east's Redis)
        this.jdbc
                .sql("update grants set region = 'east' where session_id = :s")
                .param("s", east.sessionId().value())
                .update();

        // booking reports east's purchase to this gate: recorded, but not released here, since this gate cannot
        // reach the registry east's gateways read; the session stays live there, so its slot stays held
        assertThat(this.admissions.purchaseCompleted(id, east.sessionId(), "o-east"))
                .isEqualTo(GrantState.ACTIVE);
        assertThat(state(east.sessionId())).isEqualTo("ACTIVE");

        // another region's coordinator recorded the purchase of this gate's session: this gate releases it at its
        // next tick, registry first
        this.jdbc
                .sql("update grants set purchased_at = now(), order_id = 'o-west' where session_id = :s")
                .param("s", ours.sessionId().value())
                .update();
        assertThat(this.registry.isLive(id, ours.sessionId())).isTrue();
        nanos.addAndGet(Duration.ofSeconds(2).toNanos());
        this.scenario.tick(west, eventId, Duration.ofSeconds(1));
        assertThat(state(ours.sessionId())).isEqualTo("COMPLETED");
        assertThat(this.registry.isLive(id, ours.sessionId())).isFalse();
        assertThat(state(east.sessionId())).as("east's is left to east's gate").isEqualTo("ACTIVE");
    }

    /**
     * Issue #28: an offer east's gate made, claimed through west's gateway, would register its session in west's
     * registry while only east releases it; after a purchase east hands the slot to another buyer while the first keeps
     * shopping at west. West refuses: 409 other-region, the offer stays OFFERED for its own region, nothing registered.
     */
    @Test
    void anOfferOrSessionOfAnotherRegionIsNeitherClaimedNorRenewedHere() {
        WestSale sale = twoOfferedByWest("elsewhere");
        String eventId = sale.eventId();
        List<String> visitors = sale.visitors();
        EventId id = EventId.of(eventId);
        // the first offer is east's (as if east's gate had made it); the second is claimed here, then made east's
        this.jdbc
                .sql("update grants set region = 'east' where event_id = :e and visitor = :v")
                .param("e", eventId)
                .param("v", visitors.get(0))
                .update();
        Admission claimedHere = this.admissions.claim(id, new VisitorId(visitors.get(1)));

        assertThatThrownBy(() -> this.admissions.claim(id, new VisitorId(visitors.get(0))))
                .isInstanceOfSatisfying(
                        CoordinatorException.class,
                        ex -> assertThat(ex.problem()).isEqualTo(ProblemType.OTHER_REGION));
        assertThat(this.jdbc
                        .sql("select state from grants where event_id = :e and visitor = :v")
                        .param("e", eventId)
                        .param("v", visitors.get(0))
                        .query(String.class)
                        .single())
                .as("still OFFERED, for east's gate to admit")
                .isEqualTo("OFFERED");

        this.jdbc
                .sql("update grants set region = 'east' where session_id = :s")
                .param("s", claimedHere.sessionId().value())
                .update();
        assertThatThrownBy(() -> this.admissions.renew(id, new VisitorId(visitors.get(1))))
                .isInstanceOfSatisfying(
                        CoordinatorException.class,
                        ex -> assertThat(ex.problem()).isEqualTo(ProblemType.OTHER_REGION));
        assertThatThrownBy(() -> this.admissions.claim(id, new VisitorId(visitors.get(1))))
                .as("nor is it handed out again here")
                .isInstanceOfSatisfying(
                        CoordinatorException.class,
                        ex -> assertThat(ex.problem()).isEqualTo(ProblemType.OTHER_REGION));
        assertThat(this.admissions.leave(id, new VisitorId(visitors.get(1))))
                .as("nor released here")
                .isFalse();
        assertThat(state(claimedHere.sessionId())).isEqualTo("ACTIVE");
    }

    /** An event of two visitors, both offered by this region's gate ({@code west}), whose clock the test moves. */
    private record WestSale(String eventId, List<String> visitors, AtomicLong nanos, AdmissionTicker west) {}

    private WestSale twoOfferedByWest(String name) {
        String eventId = this.scenario.openNewEvent(
                name,
                Scenario.config(10, 1000, 10, 600, 600, 1200, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        List<String> visitors = this.scenario.join(eventId, 2);
        AtomicLong nanos = new AtomicLong();
        AdmissionTicker west =
                this.scenario.coordinator("west-gate", Duration.ofSeconds(5), Duration.ofSeconds(1), nanos::get);
        for (int i = 0; i < 5 && this.grants.count(EventId.of(eventId)).live() < 2; i++) {
            nanos.addAndGet(Duration.ofSeconds(2).toNanos());
            this.scenario.tick(west, eventId, Duration.ofSeconds(1));
        }
        return new WestSale(eventId, visitors, nanos, west);
    }

    private String state(SessionId session) {
        return this.jdbc
                .sql("select state from grants where session_id = :s")
                .param("s", session.value())
                .query(String.class)
                .single();
    }

    private int slots(String eventId, String region) {
        return this.jdbc
                .sql("select slots from region_budgets where event_id = :e and region = :r")
                .param("e", eventId)
                .param("r", region)
                .query(Integer.class)
                .single();
    }
}
