package dev.waitroom.coordinator.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * What visitors are told to expect: the rate in force, or the pace offers really went out at when a full ceiling
 * holds admission below that rate. Estimates from the allowed rate alone were many times too optimistic.
 */
@CoordinatorTest
class ExpectedPaceTests {

    @Autowired
    Scenario scenario;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    EventStatePublisher publisher;

    @Autowired
    EventManagement management;

    String eventId;

    @BeforeEach
    void setUp() {
        this.eventId = this.scenario.openNewEvent(
                "pace",
                Scenario.config(50, 40, 10, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        this.scenario.fullRate();
    }

    private void openedSecondsAgo(int seconds) {
        this.jdbc
                .sql("update mode_changes set at = clock_timestamp() - make_interval(secs => ?) where event_id = ?")
                .params(seconds, this.eventId)
                .update();
    }

    private void resumedSecondsAgo(int seconds) {
        this.jdbc.sql("""
                insert into mode_changes (event_id, kind, from_value, to_value, actor, reason, at)
                values (?, 'MODE', 'PAUSED', 'QUEUEING', 'ops', 'test', clock_timestamp() - make_interval(secs => ?))""").params(this.eventId, seconds).update();
    }

    private void offeredSecondsAgo(int seconds, int count) {
        for (int i = 0; i < count; i++) {
            this.jdbc
                    .sql("""
                    insert into grants (id, event_id, visitor, entry_id, order_key, generation, state, offered_at,
                        offer_expires_at, released_at, release_reason)
                    values (gen_random_uuid(), ?, ?, ?, ?, 1, 'OFFER_EXPIRED', clock_timestamp() - make_interval(secs => ?),
                        clock_timestamp(), clock_timestamp(), 'OFFER_EXPIRED')""")
                    .params(this.eventId, "v" + seconds + "-" + i, "e" + seconds + "-" + i, seconds * 100L + i, seconds)
                    .update();
        }
    }

    private Event event() {
        return this.management.get(EventId.of(this.eventId));
    }

    @Test
    void withoutThirtySecondsOfHistoryTheRateInForceIsTheBestGuess() {
        openedSecondsAgo(20);
        offeredSecondsAgo(5, 3);
        assertThat(this.publisher.expectedPace(event())).isEqualTo(this.publisher.admissionRate(event()));
    }

    @Test
    void aSlowerMeasuredPaceWinsOverTheAllowedRate() {
        openedSecondsAgo(60);
        offeredSecondsAgo(45, 1);
        offeredSecondsAgo(10, 6); // 6 offers in the last 30 s: 0.2 per second, far below the allowed 40
        assertThat(this.publisher.admissionRate(event())).isGreaterThan(10);
        assertThat(this.publisher.expectedPace(event())).isCloseTo(0.2, org.assertj.core.data.Offset.offset(0.001));
    }

    @Test
    void theAllowedRateCapsAFasterMeasuredPace() {
        openedSecondsAgo(60);
        offeredSecondsAgo(45, 1);
        offeredSecondsAgo(10, 3000); // 100 per second measured: never promise more than the rate in force
        assertThat(this.publisher.expectedPace(event())).isEqualTo(this.publisher.admissionRate(event()));
    }

    @Test
    void aPauseIsNotCountedAsASlowPace() {
        openedSecondsAgo(600);
        offeredSecondsAgo(100, 300);
        resumedSecondsAgo(12); // paused until 12 s ago: the last 30 s hold almost no offers
        offeredSecondsAgo(3, 2);
        assertThat(this.publisher.expectedPace(event()))
                .as("too little measured since the resume: the rate in force")
                .isEqualTo(this.publisher.admissionRate(event()));
    }
}
