package dev.waitroom.gateway.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.EstimateCaveat;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.tokens.QueueTicket;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The edge estimates with the queue-service's rule on the pace in the snapshot (docs/design/estimates.md): for the same
 * pushed state and the same band both answer the same range and caveat (the queue-service's EstimateTests hold its
 * side: {@code EstimatedWait.of(Position.around(ahead), rate, pace)}).
 */
class EdgeEstimateTests {

    static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    final EdgeStatusPolicy policy = new EdgeStatusPolicy(Duration.ofSeconds(2), Duration.ofMinutes(30));

    static QueueSnapshot snapshot(OperatingMode mode, long ahead, double rate, Pace pace) {
        List<WaitingBucket> buckets = List.of(new WaitingBucket(ahead, ahead), new WaitingBucket(ahead + 1, 1));
        return new QueueSnapshot(
                "e",
                EventPhase.OPEN,
                mode,
                null,
                1,
                rate,
                0L,
                NOW.minus(Duration.ofHours(1)),
                true,
                0L,
                ahead + 1,
                buckets,
                NOW.minusMillis(500),
                null,
                null,
                pace,
                null,
                null);
    }

    private QueueStatus answer(QueueSnapshot snapshot, long ahead) {
        QueueTicket ticket = new QueueTicket("e", "entry", ahead + 1, NOW.minusSeconds(10));
        EdgeStatusPolicy.Decision decision =
                policy.decide("e", ticket, new TimedSnapshot(snapshot, NOW.minusMillis(300)), NOW);
        assertThat(decision).isInstanceOf(EdgeStatusPolicy.Answer.class);
        return ((EdgeStatusPolicy.Answer) decision).status();
    }

    @Test
    void answersTheQueueServicesRangeForTheSameBandAndPace() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        int same = 0;
        for (int i = 0; i < 2_000; i++) {
            long ahead = 50 + random.nextInt(100_000);
            double rate = 0.2 + random.nextDouble() * 5;
            Pace pace = random.nextInt(4) == 0
                    ? null
                    : new Pace(
                            rate,
                            rate * (0.5 + random.nextDouble() * 4),
                            rate * (0.4 + random.nextDouble() * 1.2),
                            random.nextInt(Pace.WINDOW_BUCKETS + 1),
                            rate / 3,
                            random.nextInt(5) == 0);
            QueueStatus edge = answer(snapshot(OperatingMode.QUEUEING, ahead, rate, pace), ahead);
            assertThat(edge.estimatedWaitSeconds())
                    .as("seed %d: %d ahead", seed, ahead)
                    .isEqualTo(QueueStatus.EstimatedWait.of(edge.position(), rate, pace));
            QueueStatus.Position queueBand = QueueStatus.Position.around(ahead);
            if (edge.position().equals(queueBand)) {
                same++;
                assertThat(edge.estimatedWaitSeconds())
                        .as("seed %d: %d ahead, the queue-service's answer", seed, ahead)
                        .isEqualTo(QueueStatus.EstimatedWait.of(queueBand, rate, pace));
            }
        }
        assertThat(same)
                .as("seed %d: most places read the same band at the edge", seed)
                .isGreaterThan(1_000);
    }

    @Test
    void saysWhyTheRangeIsWideAsTheQueueServiceDoes() {
        Pace slowed = new Pace(4, 3, 1.5, 60, 1, false);
        assertThat(answer(snapshot(OperatingMode.QUEUEING, 5_000, 4, slowed), 5_000)
                        .estimatedWaitSeconds()
                        .caveat())
                .isEqualTo(EstimateCaveat.SLOWED);
        assertThat(answer(snapshot(OperatingMode.QUEUEING, 100, 4, null), 100)
                        .estimatedWaitSeconds()
                        .caveat())
                .isEqualTo(EstimateCaveat.MEASURING);
        assertThat(answer(snapshot(OperatingMode.QUEUEING, 5_000, 4, new Pace(4, 4, 4, 60, 1, true)), 5_000)
                        .estimatedWaitSeconds()
                        .caveat())
                .isEqualTo(EstimateCaveat.RESUMED);
        assertThat(answer(snapshot(OperatingMode.PAUSED, 5_000, 4, slowed), 5_000)
                        .estimatedWaitSeconds())
                .as("paused: no estimate")
                .isNull();
    }

    /**
     * Issue #26: a range whose upper end passes 4 times its lower end plus 2 minutes means nothing; the edge says "not
     * known yet" (no estimate) by the same rule as the queue-service, while the place is still shown.
     */
    @Test
    void saysNotKnownYetWhereTheRangeWouldBeTooWide() {
        Pace measuringDownToTheFloor = new Pace(0, 0, 0, 2, 0.02, false);
        for (long ahead : new long[] {40, 5_000}) {
            QueueStatus edge = answer(snapshot(OperatingMode.QUEUEING, ahead, 4, measuringDownToTheFloor), ahead);
            assertThat(edge.position()).as("%d ahead", ahead).isNotNull();
            assertThat(edge.estimatedWaitSeconds()).as("%d ahead", ahead).isNull();
        }
        QueueStatus far = answer(snapshot(OperatingMode.QUEUEING, 5_000, 4, null), 5_000);
        assertThat(far.estimatedWaitSeconds())
                .as("5,001 offers from 4/s down to 1/s: 19 min .. 83 min")
                .isNull();
        QueueStatus steady = answer(snapshot(OperatingMode.QUEUEING, 5_000, 4, new Pace(4, 4, 4, 60, 1, false)), 5_000);
        assertThat(steady.estimatedWaitSeconds()).isNotNull();
        assertThat(steady.estimatedWaitSeconds().max())
                .isLessThanOrEqualTo(4 * steady.estimatedWaitSeconds().min() + 120);
        String json = new String(EdgeStatusJson.write(far), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(json).contains("\"estimatedWaitSeconds\":null");
    }

    @Test
    void theEdgesJsonCarriesTheCaveat() {
        QueueStatus edge = answer(snapshot(OperatingMode.QUEUEING, 5_000, 4, new Pace(4, 3, 1.5, 60, 1, false)), 5_000);
        String json = new String(EdgeStatusJson.write(edge), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(json).contains("\"caveat\":\"SLOWED\"");
    }
}
