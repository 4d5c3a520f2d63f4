package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.grants.Grant;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.RealStores;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

@CoordinatorTest
class TakeoverAndFaultTests {

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    Grants grants;

    @AfterEach
    void heal() {
        this.scenario.queue.failOffers(false);
        this.scenario.queue.unavailable(false);
    }

    private AdmissionTicker coordinator(String owner) {
        return this.scenario.coordinator(owner, Duration.ofSeconds(5), Duration.ofSeconds(1), System::nanoTime);
    }

    /** The events here: a small ceiling, a fast rate, offers dropped when they expire. */
    private static EventConfig config(int ceiling) {
        return Scenario.config(ceiling, 1000, 10, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE);
    }

    @Test
    void aNewLeaderCountsFromTheGrantsAndTellsTheQueueAgain() {
        String eventId = this.scenario.openNewEvent("takeover", config(3));
        this.scenario.join(eventId, 10);
        AdmissionTicker first = coordinator("first");
        AdmissionTicker second = coordinator("second");
        for (int i = 0; i < 3; i++) {
            this.scenario.tick(first, eventId, Duration.ofSeconds(1));
        }
        assertThat(this.grants.count(EventId.of(eventId)).offered()).isEqualTo(3);
        assertThat(second.tick(this.scenario.management.get(EventId.of(eventId))))
                .as("not the leader")
                .isZero();

        first.resign(); // the first coordinator dies
        for (int i = 0; i < 3; i++) {
            assertThat(this.scenario.tick(second, eventId, Duration.ofSeconds(1)))
                    .isZero();
        }

        assertThat(second.generation(EventId.of(eventId)))
                .hasValueSatisfying(g -> assertThat(g.value()).isEqualTo(2));
        assertThat(this.grants.count(EventId.of(eventId)).live()).isEqualTo(3);
        assertThat(this.scenario.directory.counts(EventId.of(eventId)).offered())
                .isEqualTo(3);
    }

    @Test
    void aNewLeaderResendsMoreOffersThanOneQueueCallCarries() {
        int outstanding = OfferBatch.MAX_OFFERS + 200;
        String eventId = this.scenario.openNewEvent(
                "takeover-big",
                Scenario.config(
                        outstanding, 100_000, 1000, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
        this.scenario.join(eventId, outstanding);
        AdmissionTicker first = coordinator("first");
        AdmissionTicker second = coordinator("second");
        for (int i = 0; i < 30 && this.grants.count(EventId.of(eventId)).offered() < outstanding; i++) {
            this.scenario.tick(first, eventId, Duration.ofSeconds(1));
        }
        assertThat(this.grants.count(EventId.of(eventId)).offered()).isEqualTo(outstanding);

        first.resign();
        this.scenario.tick(second, eventId, Duration.ofSeconds(1));

        // The queue refuses a call of more than MAX_OFFERS; the new leader's resend is split, so nothing is withdrawn.
        assertThat(this.grants.count(EventId.of(eventId)).live()).isEqualTo(outstanding);
        assertThat(this.scenario.directory.counts(EventId.of(eventId)).offered())
                .isEqualTo(outstanding);
    }

    @Test
    void offersLostOnTheWayToTheQueueAreRepairedWithoutDoubleGrants() {
        String eventId = this.scenario.openNewEvent("outbox", config(4));
        List<String> visitors = this.scenario.join(eventId, 8);
        this.scenario.queue.failOffers(true);

        this.scenario.tickUntilLive(eventId, 4);
        assertThat(this.grants.count(EventId.of(eventId)).offered()).isEqualTo(4);
        assertThat(this.scenario.directory.counts(EventId.of(eventId)).offered())
                .as("the queue never heard")
                .isZero();
        this.scenario.tick(eventId, Duration.ofSeconds(1));
        assertThat(this.grants.count(EventId.of(eventId)).offered())
                .as("no second wave while the queue is behind")
                .isEqualTo(4);

        this.scenario.queue.failOffers(false);
        this.scenario.tick(eventId, Duration.ofSeconds(1));

        assertThat(this.scenario.directory.counts(EventId.of(eventId)).offered())
                .isEqualTo(4);
        long unsynced = this.jdbc
                .sql("select count(*) from grants where event_id = :e and queue_synced_state is distinct from state")
                .param("e", eventId)
                .query(Long.class)
                .single();
        assertThat(unsynced).isZero();
        for (String visitor : visitors.subList(0, 4)) {
            Grant grant = this.grants
                    .findLive(EventId.of(eventId), new VisitorId(visitor))
                    .orElseThrow();
            assertThat(this.scenario.queue.entry(eventId, visitor).state()).isEqualTo(FakeQueueEntry.State.OFFERED);
            assertThat(grant.queueSyncedState()).isEqualTo(GrantState.OFFERED);
        }
    }

    @Test
    void anOfferToAVisitorWhoLeftTheQueueMeanwhileIsWithdrawn() {
        String eventId = this.scenario.openNewEvent("withdraw", config(2));
        List<String> visitors = this.scenario.join(eventId, 4);
        this.scenario.queue.failOffers(true);
        this.scenario.tickUntilLive(eventId, 2);
        this.scenario.queue.leave(eventId, visitors.get(0)); // left between the candidates call and the offer
        this.scenario.queue.failOffers(false);

        this.scenario.tick(eventId, Duration.ofSeconds(1));

        assertThat(this.grants.findLive(EventId.of(eventId), new VisitorId(visitors.get(0))))
                .isEmpty();
        assertThat(this.scenario.grants.releasedByReason(EventId.of(eventId))).containsEntry("WITHDRAWN", 1L);
        this.scenario.tickUntilLive(eventId, 2);
        assertThat(this.grants.findLive(EventId.of(eventId), new VisitorId(visitors.get(2))))
                .isPresent();
        assertThat(this.scenario.directory.counts(EventId.of(eventId)).offered())
                .isEqualTo(2);
    }

    @Test
    void theDrawWaitsForTheQueueAndTheSeedStaysSecretUntilItRan() {
        String eventId = Scenario.eventId("draw");
        this.scenario.management.create(EventId.of(eventId), config(2), "test");
        this.scenario.join(eventId, 3);
        this.scenario.queue.unavailable(true);

        var opened = this.scenario.management.open(EventId.of(eventId), "test", "doors open");
        assertThat(opened.phase().name()).isEqualTo("OPEN");
        assertThat(opened.revealedSeed()).isNull();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> this.scenario.tick(eventId, Duration.ofSeconds(1)))
                .isInstanceOf(dev.waitroom.coordinator.queue.QueueUnavailableException.class);
        assertThat(this.scenario.management.get(EventId.of(eventId)).revealedSeed())
                .isNull();
        assertThat(this.grants.count(EventId.of(eventId)).live()).isZero();

        this.scenario.queue.unavailable(false);
        this.scenario.tick(eventId, Duration.ofSeconds(1));
        var drawn = this.scenario.management.get(EventId.of(eventId));
        assertThat(drawn.revealedSeed()).isNotNull();
        assertThat(this.scenario.queue.drawn(eventId)).isTrue();
        assertThat(this.scenario.queue.lastState(eventId).seed()).isEqualTo(drawn.revealedSeed());
        assertThat(this.scenario.tickUntilLive(eventId, 2).live()).isEqualTo(2);
    }

    @Test
    void withRedisDownNoNewAdmissionIsIssuedAndItResumesAfterwards() {
        String eventId = this.scenario.openNewEvent("redis-down", config(4));
        List<String> visitors = this.scenario.join(eventId, 6);
        this.scenario.tickUntilLive(eventId, 2);
        long offeredBefore = this.grants.count(EventId.of(eventId)).offered();
        Http http = this.scenario.http();
        String claimPath = "/events/" + eventId + "/admission/claim";

        RealStores.stopRedis();
        try {
            Http.Response claim = http.post(claimPath, null, Headers.VISITOR, visitors.get(0));
            assertThat(claim.status()).isEqualTo(503);
            assertThat(claim.problemType()).endsWith("/admission-unavailable");
            assertThat(claim.body()).doesNotContain("\"token\"");
            for (int i = 0; i < 3; i++) {
                this.scenario.tick(eventId, Duration.ofSeconds(1));
            }
            assertThat(this.grants.count(EventId.of(eventId)).offered()
                            + this.grants.count(EventId.of(eventId)).active())
                    .as("no new offers while the registry is down")
                    .isEqualTo(offeredBefore);
        } finally {
            RealStores.startRedis();
        }

        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(http.post(claimPath, null, Headers.VISITOR, visitors.get(0))
                                .status())
                        .isEqualTo(200));
        assertThat(this.scenario.tickUntilLive(eventId, 4).live()).isEqualTo(4);
    }
}
