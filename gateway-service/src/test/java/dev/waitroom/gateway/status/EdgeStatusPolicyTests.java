package dev.waitroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.tokens.QueueTicket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class EdgeStatusPolicyTests {

    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");

    final EdgeStatusPolicy policy = new EdgeStatusPolicy(Duration.ofSeconds(2), Duration.ofMinutes(30));

    static QueueSnapshot snapshot(
            EventPhase phase, OperatingMode mode, long watermark, List<WaitingBucket> buckets, double rate) {
        return new QueueSnapshot(
                "e",
                phase,
                mode,
                null,
                1,
                rate,
                watermark,
                NOW.minus(Duration.ofHours(1)),
                true,
                0L,
                waiting(buckets),
                buckets,
                NOW.minusMillis(500),
                null,
                null,
                null,
                null,
                null);
    }

    static long waiting(List<WaitingBucket> buckets) {
        return buckets.stream().mapToLong(WaitingBucket::count).sum();
    }

    static TimedSnapshot fresh(QueueSnapshot snapshot) {
        return new TimedSnapshot(snapshot, NOW.minusMillis(300));
    }

    static QueueTicket ticket(long orderKey) {
        return new QueueTicket("e", "entry-" + orderKey, orderKey, NOW.minusSeconds(10));
    }

    static List<WaitingBucket> buckets(long... maxKeysAndCounts) {
        List<WaitingBucket> list = new ArrayList<>();
        for (int i = 0; i < maxKeysAndCounts.length; i += 2) {
            list.add(new WaitingBucket(maxKeysAndCounts[i], maxKeysAndCounts[i + 1]));
        }
        return list;
    }

    @Test
    void bandContainsEveryPossiblePlaceInsideTheOwnBucket() {
        // keys 101..200 waiting in buckets of 10; offers reached key 100
        List<WaitingBucket> list = new ArrayList<>();
        for (long max = 110; max <= 200; max += 10) {
            list.add(new WaitingBucket(max, 10));
        }
        QueueSnapshot snapshot = snapshot(EventPhase.OPEN, OperatingMode.QUEUEING, 100, list, 1.0);
        for (long key = 131; key <= 200; key++) {
            var decision = policy.decide("e", ticket(key), fresh(snapshot), NOW);
            assertThat(decision).as("key %d", key).isInstanceOf(EdgeStatusPolicy.Answer.class);
            var status = ((EdgeStatusPolicy.Answer) decision).status();
            long truth = key - 101;
            assertThat(truth)
                    .isBetween(status.position().aheadMin(), status.position().aheadMax());
            assertThat(status.state()).isEqualTo("WAITING");
            assertThat(status.offer()).isNull();
            assertThat(status.receipt()).isEqualTo("entry-" + key);
        }
    }

    @Test
    void randomQueuesAlwaysGiveABandHoldingTheTruthOrForward() {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        for (int round = 0; round < 500; round++) {
            int waiting = 1 + random.nextInt(5000);
            long watermark = random.nextInt(100);
            long[] keys = new long[waiting];
            long key = watermark;
            for (int i = 0; i < waiting; i++) {
                key += 1 + random.nextInt(3);
                keys[i] = key;
            }
            int bucketSize = 1 + random.nextInt(200);
            List<WaitingBucket> list = new ArrayList<>();
            for (int i = 0; i < waiting; i += bucketSize) {
                int end = Math.min(waiting, i + bucketSize);
                list.add(new WaitingBucket(keys[end - 1], end - i));
            }
            double rate = 0.5 + random.nextDouble() * 50;
            QueueSnapshot snapshot = snapshot(EventPhase.OPEN, OperatingMode.QUEUEING, watermark, list, rate);
            int mine = random.nextInt(waiting);
            var decision = policy.decide("e", ticket(keys[mine]), fresh(snapshot), NOW);
            if (decision instanceof EdgeStatusPolicy.Answer answer) {
                assertThat((long) mine)
                        .as("seed %d round %d", seed, round)
                        .isBetween(
                                answer.status().position().aheadMin(),
                                answer.status().position().aheadMax());
                QueueStatus.EstimatedWait estimate = answer.status().estimatedWaitSeconds();
                assertThat(estimate)
                        .as("seed %d: the contract's one rule, null where too wide to mean anything", seed)
                        .isEqualTo(QueueStatus.EstimatedWait.of(answer.status().position(), rate, null));
                if (estimate != null) {
                    assertThat(estimate.min()).as("seed %d", seed).isLessThanOrEqualTo((long) Math.ceil(mine / rate));
                    assertThat(estimate.max()).as("seed %d", seed).isGreaterThanOrEqualTo((long)
                            Math.floor(mine / rate));
                }
            } else {
                assertThat(((EdgeStatusPolicy.Forward) decision).reason())
                        .as("seed %d", seed)
                        .isEqualTo("near-offer");
            }
        }
    }

    @Test
    void forwardsWheneverTheEdgeCannotBeSure() {
        QueueSnapshot open = snapshot(EventPhase.OPEN, OperatingMode.QUEUEING, 10, buckets(100, 90), 1.0);
        assertThat(reason(null, fresh(open))).isEqualTo("no-ticket");
        assertThat(reason(new QueueTicket("other", "x", 50, NOW.minusSeconds(5)), fresh(open)))
                .isEqualTo("other-event");
        assertThat(reason(new QueueTicket("e", "x", 50, NOW.minus(Duration.ofMinutes(30))), fresh(open)))
                .isEqualTo("old-ticket");
        assertThat(reason(ticket(50), null)).isEqualTo("no-snapshot");
        assertThat(reason(ticket(50), new TimedSnapshot(open, NOW.minusSeconds(2))))
                .isEqualTo("stale-snapshot");
        assertThat(reason(ticket(5), fresh(open))).isEqualTo("maybe-offered");
        assertThat(reason(ticket(10), fresh(open))).isEqualTo("maybe-offered");
        assertThat(reason(ticket(12), new TimedSnapshot(open, NOW.minusMillis(1600))))
                .as("only 1 ahead, from a snapshot too old to answer near the front")
                .isEqualTo("near-offer");
        assertThat(reason(ticket(500), fresh(open)))
                .as("beyond every waiting bucket")
                .isEqualTo("not-waiting");
        assertThat(reason(
                        ticket(50), fresh(snapshot(EventPhase.ENDED, OperatingMode.QUEUEING, 10, buckets(100, 90), 1))))
                .isEqualTo("not-open");
        assertThat(reason(ticket(50), fresh(snapshot(EventPhase.SCHEDULED, OperatingMode.SOLD_OUT, 0, List.of(), 0))))
                .isEqualTo("mode");
        assertThat(reason(
                        ticket(50), fresh(snapshot(EventPhase.OPEN, OperatingMode.SOLD_OUT, 10, buckets(100, 90), 1))))
                .isEqualTo("mode");
        assertThat(reason(ticket(50), fresh(snapshot(EventPhase.OPEN, OperatingMode.BYPASS, 10, buckets(100, 90), 1))))
                .isEqualTo("mode");
        QueueSnapshot drawnLater = new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                10L,
                NOW.minusSeconds(5),
                true,
                0L,
                90L,
                buckets(100, 90),
                NOW.minusMillis(100),
                null,
                null,
                null,
                null,
                null);
        assertThat(reason(ticket(50), fresh(drawnLater)))
                .as("ticket issued before the draw")
                .isEqualTo("before-draw");
        QueueSnapshot olderThanTicket = new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                10L,
                NOW.minus(Duration.ofHours(1)),
                true,
                0L,
                90L,
                buckets(100, 90),
                NOW.minusSeconds(20),
                null,
                null,
                null,
                null,
                null);
        assertThat(reason(ticket(50), fresh(olderThanTicket))).isEqualTo("snapshot-older-than-ticket");
        QueueSnapshot aLittleOlder = new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                10L,
                NOW.minus(Duration.ofHours(1)),
                true,
                0L,
                80L,
                buckets(30, 20, 100, 60),
                NOW.minusSeconds(11),
                null,
                null,
                null,
                null,
                null);
        assertThat(decide(ticket(50), fresh(aLittleOlder)))
                .as("a snapshot older than the ticket by less than its maximum age still answers (a forwarded poll's "
                        + "fresh ticket must not force the next poll to forward too)")
                .isInstanceOf(EdgeStatusPolicy.Answer.class);
    }

    @Test
    void nearTheFrontTheEdgeAnswersFromAFreshSnapshotAndAsksBackWithinASecond() {
        QueueSnapshot open = snapshot(EventPhase.OPEN, OperatingMode.QUEUEING, 10, buckets(100, 90), 1.0);
        var decision = policy.decide("e", ticket(12), fresh(open), NOW);
        assertThat(decision).isInstanceOf(EdgeStatusPolicy.Answer.class);
        QueueStatus status = ((EdgeStatusPolicy.Answer) decision).status();
        assertThat(status.state()).isEqualTo("WAITING");
        assertThat(status.position().aheadMin())
                .as("offers since the snapshot may have reached it")
                .isZero();
        assertThat(status.pollAfterSeconds()).isEqualTo(EdgeStatusPolicy.NEAR_FRONT_POLL_SECONDS);
        assertThat(reason(ticket(10), fresh(open)))
                .as("an offer the snapshot shows always goes to the queue-service")
                .isEqualTo("maybe-offered");
        QueueSnapshot paused = snapshot(EventPhase.OPEN, OperatingMode.PAUSED, 10, buckets(100, 90), 1.0);
        QueueStatus whilePaused =
                ((EdgeStatusPolicy.Answer) policy.decide("e", ticket(12), fresh(paused), NOW)).status();
        assertThat(whilePaused.pollAfterSeconds())
                .as("nothing is offered while paused")
                .isEqualTo(45);
    }

    @Test
    void fifoEventWithoutPresaleIsAnsweredWithoutADrawTime() {
        QueueSnapshot fifo = new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                10L,
                null,
                true,
                null,
                90L,
                buckets(30, 20, 60, 30, 100, 40),
                NOW.minusMillis(100),
                null,
                null,
                null,
                null,
                null);
        assertThat(policy.decide("e", ticket(60), fresh(fifo), NOW)).isInstanceOf(EdgeStatusPolicy.Answer.class);
        QueueSnapshot unknown = new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                1,
                10L,
                null,
                null,
                null,
                90L,
                buckets(30, 20, 60, 30, 100, 40),
                NOW.minusMillis(100),
                null,
                null,
                null,
                null,
                null);
        assertThat(reason(ticket(60), fresh(unknown))).isEqualTo("before-draw");
    }

    @Test
    void preSaleVisitorsAreAnsweredWithoutPositionOrEstimate() {
        QueueSnapshot scheduled = new QueueSnapshot(
                "e",
                EventPhase.SCHEDULED,
                OperatingMode.QUEUEING,
                "Opens at ten",
                1,
                0,
                0L,
                null,
                false,
                null,
                3L,
                List.of(),
                NOW.minusMillis(100),
                null,
                null,
                null,
                null,
                null);
        var answer = (EdgeStatusPolicy.Answer)
                policy.decide("e", new QueueTicket("e", "r-1", 0, NOW.minusSeconds(5)), fresh(scheduled), NOW);
        assertThat(answer.status().phase()).isEqualTo(EventPhase.SCHEDULED);
        assertThat(answer.status().state()).isEqualTo("WAITING");
        assertThat(answer.status().position()).isNull();
        assertThat(answer.status().estimatedWaitSeconds()).isNull();
        assertThat(answer.status().receipt()).isEqualTo("r-1");
        assertThat(answer.status().announcement()).isEqualTo("Opens at ten");
        assertThat(answer.status().pollAfterSeconds()).isEqualTo(20);
        assertThat(decide(new QueueTicket("e", "r-1", 0, NOW.minusSeconds(600)), fresh(scheduled)))
                .as("liveness needs no forward: it is recorded in batches")
                .isInstanceOf(EdgeStatusPolicy.Answer.class);
        assertThat(reason(new QueueTicket("e", "r-1", 0, NOW.minus(Duration.ofMinutes(31))), fresh(scheduled)))
                .as("a ticket past its maximum age is refreshed once")
                .isEqualTo("old-ticket");
    }

    @Test
    void pausedHasNoEstimateAndPollsSlowly() {
        QueueSnapshot paused =
                snapshot(EventPhase.OPEN, OperatingMode.PAUSED, 10, buckets(30, 20, 60, 30, 100, 40), 1.0);
        var answer = (EdgeStatusPolicy.Answer) policy.decide("e", ticket(60), fresh(paused), NOW);
        assertThat(answer.status().estimatedWaitSeconds()).isNull();
        assertThat(answer.status().mode()).isEqualTo(OperatingMode.PAUSED);
        assertThat(answer.status().pollAfterSeconds()).isEqualTo(45);
    }

    /**
     * Issue 17: while paused or sold out the page shows no progress, as the queue-service answers (no estimate). Paused,
     * an edge answer never carries an estimate; sold out, every poll is forwarded to the queue-service.
     */
    @Test
    void pausedOrSoldOutTheEdgeNeverShowsAnEstimate() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        int answered = 0;
        for (int round = 0; round < 500; round++) {
            List<WaitingBucket> buckets = new ArrayList<>();
            long key = random.nextInt(20);
            for (int b = 0; b < 1 + random.nextInt(8); b++) {
                key += 1 + random.nextInt(50);
                buckets.add(new WaitingBucket(key, 1 + random.nextInt(10)));
            }
            long watermark = random.nextInt(20);
            double rate = random.nextDouble() * 5;
            QueueTicket ticket = ticket(watermark + 1 + random.nextInt((int) key));
            var paused =
                    decide(ticket, fresh(snapshot(EventPhase.OPEN, OperatingMode.PAUSED, watermark, buckets, rate)));
            if (paused instanceof EdgeStatusPolicy.Answer answer) {
                answered++;
                assertThat(answer.status().estimatedWaitSeconds())
                        .as("seed %d", seed)
                        .isNull();
                assertThat(answer.status().mode()).isEqualTo(OperatingMode.PAUSED);
            }
            assertThat(reason(
                            ticket, fresh(snapshot(EventPhase.OPEN, OperatingMode.SOLD_OUT, watermark, buckets, rate))))
                    .as("seed %d", seed)
                    .isEqualTo("mode");
        }
        assertThat(answered)
                .as("seed %d: some paused polls are answered at the edge", seed)
                .isPositive();
    }

    @Test
    void coarseBandsMatchTheQueueServiceRounding() {
        assertThat(QueueStatus.Position.covering(42, 51)).isEqualTo(new QueueStatus.Position(42, 51));
        assertThat(QueueStatus.Position.covering(12_345, 12_400)).isEqualTo(new QueueStatus.Position(12_000, 12_999));
        assertThat(QueueStatus.Position.covering(99, 100)).isEqualTo(new QueueStatus.Position(99, 109));
    }

    @Test
    void pollAdviceGrowsWithDistanceFromTheFront() {
        assertThat(EdgeStatusPolicy.pollAfter(false, 5, 1.0)).isEqualTo(2);
        assertThat(EdgeStatusPolicy.pollAfter(false, 150, 1.0)).isEqualTo(15);
        assertThat(EdgeStatusPolicy.pollAfter(false, 100_000, 1.0)).isEqualTo(30);
        assertThat(QueueStatus.EstimatedWait.of(new QueueStatus.Position(10, 20), 0))
                .isNull();
    }

    private EdgeStatusPolicy.Decision decide(QueueTicket ticket, TimedSnapshot snapshot) {
        return policy.decide("e", ticket, snapshot, NOW);
    }

    private String reason(QueueTicket ticket, TimedSnapshot snapshot) {
        var decision = policy.decide("e", ticket, snapshot, NOW);
        assertThat(decision).isInstanceOf(EdgeStatusPolicy.Forward.class);
        return ((EdgeStatusPolicy.Forward) decision).reason();
    }
}
