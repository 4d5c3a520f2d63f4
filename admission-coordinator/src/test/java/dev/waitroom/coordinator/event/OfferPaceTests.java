package dev.waitroom.coordinator.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The offer pace pushed for wait estimates (docs/design/estimates.md): offers counted per 5 s bucket on database time, only
 * since admissions last started, with the slowest healthy pace and whether admissions just resumed.
 */
@CoordinatorTest
class OfferPaceTests {

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
        // ceiling 50, offer TTL 30 s, longest session 120 s: a healthy sale offers at least 50 / 150 s = 1/3 per second
        this.eventId = this.scenario.openNewEvent(
                "offer-pace",
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

    private void offeredSecondsAgo(double seconds, int count) {
        for (int i = 0; i < count; i++) {
            this.jdbc
                    .sql("""
                    insert into grants (id, event_id, visitor, entry_id, order_key, generation, state, offered_at,
                        offer_expires_at, released_at, release_reason)
                    values (gen_random_uuid(), ?, ?, ?, ?, 1, 'OFFER_EXPIRED', clock_timestamp() - make_interval(secs => ?),
                        clock_timestamp(), clock_timestamp(), 'OFFER_EXPIRED')""")
                    .params(
                            this.eventId,
                            "v" + seconds + "-" + i,
                            "e" + seconds + "-" + i,
                            (long) (seconds * 100) + i,
                            seconds)
                    .update();
        }
    }

    private Pace pace() {
        return this.publisher.pace(this.management.get(EventId.of(this.eventId)));
    }

    @Test
    void countsOffersPerFiveSecondBucketSinceTheOpening() {
        openedSecondsAgo(62);
        offeredSecondsAgo(2, 5); // newest bucket
        offeredSecondsAgo(7, 10); // the one before
        offeredSecondsAgo(40, 3);
        offeredSecondsAgo(70, 100); // before the opening: not this sale's pace
        Pace pace = pace();
        assertThat(pace.buckets()).as("62 s open: 12 whole buckets").isEqualTo(12);
        assertThat(pace.perSecond()).isCloseTo(18 / 60.0, offset(1e-9));
        assertThat(pace.recentPerSecond()).isCloseTo(15 / 30.0, offset(1e-9));
        assertThat(pace.variance()).isGreaterThan(0);
        assertThat(pace.floorPerSecond()).isCloseTo(50 / 150.0, offset(1e-9));
        assertThat(pace.resumed()).isFalse();
        assertThat(pace.measured()).isTrue();
    }

    @Test
    void keepsOnlyTheLastFiveMinutes() {
        openedSecondsAgo(900);
        offeredSecondsAgo(2, 30);
        offeredSecondsAgo(400, 1000);
        Pace pace = pace();
        assertThat(pace.buckets()).isEqualTo(Pace.WINDOW_BUCKETS);
        assertThat(pace.perSecond()).isCloseTo(30 / 300.0, offset(1e-9));
    }

    @Test
    void startsMeasuringAgainWhenAdmissionsResume() {
        openedSecondsAgo(600);
        offeredSecondsAgo(100, 500); // before the pause
        resumedSecondsAgo(21);
        offeredSecondsAgo(3, 4);
        Pace pace = pace();
        assertThat(pace.buckets()).as("21 s since the resume: 4 buckets").isEqualTo(4);
        assertThat(pace.measured()).isFalse();
        assertThat(pace.resumed()).isTrue();
        assertThat(pace.perSecond()).isCloseTo(4 / 20.0, offset(1e-9));
    }

    @Test
    void aResumeLongAgoIsNoLongerNews() {
        openedSecondsAgo(600);
        resumedSecondsAgo(200);
        offeredSecondsAgo(3, 4);
        Pace pace = pace();
        assertThat(pace.resumed()).isFalse();
        assertThat(pace.buckets()).isEqualTo(40);
    }

    @Test
    void theFillOfTheCeilingAtTheStartIsNotThePace() {
        openedSecondsAgo(62);
        offeredSecondsAgo(58, 50); // the free ceiling, offered at once
        for (int bucket = 0; bucket < 11; bucket++) {
            offeredSecondsAgo(2 + bucket * 5, 10);
        }
        Pace pace = pace();
        assertThat(pace.buckets()).as("the fill's bucket left out").isEqualTo(11);
        assertThat(pace.perSecond()).isCloseTo(2.0, offset(1e-9));
        assertThat(pace.variance()).isCloseTo(0, offset(1e-9));
        assertThat(EventStatePublisher.withoutFill(new long[] {50, 10, 10, 10, 10, 10, 10, 10}))
                .containsExactly(10, 10, 10, 10, 10, 10, 10);
        assertThat(EventStatePublisher.withoutFill(new long[] {50, 10, 10, 10, 10, 10}))
                .as("never below the buckets a pace needs")
                .hasSize(6);
        long[] sliding = new long[Pace.WINDOW_BUCKETS];
        sliding[0] = 500;
        assertThat(EventStatePublisher.withoutFill(sliding))
                .as("five minutes on, the window no longer starts at the start")
                .isSameAs(sliding);
    }

    @Test
    void noPaceBeforeTheOpening() {
        EventId scheduled = EventId.of(Scenario.eventId("offer-pace-later"));
        this.management.create(
                scheduled,
                Scenario.config(50, 40, 10, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE),
                "test");
        assertThat(this.publisher.pace(this.management.get(scheduled))).isNull();
    }
}
