package dev.waitroom.contract.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The wait band against simulated offer paces: measured as the coordinator measures (5 s buckets), then the real wait of
 * visitors at random places is played forward with noise the band never saw.
 */
class WaitBandTests {

    static LongStream seeds() {
        return LongStream.range(1, 41).map(i -> i * 7919 + 17);
    }

    /**
     * Offers per second: Poisson around {@code rate} times a gamma-distributed factor redrawn every second, so the
     * counts are overdispersed as a ceiling-bound admission is (slots free in bunches).
     */
    private record OfferProcess(double rate, double shape, SplittableRandom random) {

        long nextSecond() {
            double factor = shape <= 0 ? 1 : gamma(shape, random) / shape;
            return poisson(rate * factor, random);
        }

        long[] buckets(int n) {
            long[] counts = new long[n];
            for (int b = 0; b < n; b++) {
                for (int s = 0; s < Pace.BUCKET_SECONDS; s++) {
                    counts[b] += nextSecond();
                }
            }
            return counts;
        }

        /** Seconds until {@code needed} offers are made, counting offers as spread evenly within a second. */
        double secondsUntil(long needed) {
            long made = 0;
            for (int second = 0; ; second++) {
                long now = nextSecond();
                if (made + now >= needed) {
                    return second + (needed - made) / (double) (now + 1);
                }
                made += now;
            }
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void holdsTheRealWaitOfNineInTenAtASteadyNoisyPace(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        double rate = 0.5 + random.nextDouble() * 40;
        double shape = random.nextBoolean() ? 0 : 1 + random.nextDouble() * 6;
        double leaving = random.nextDouble() * 0.08;
        OfferProcess offers = new OfferProcess(rate, shape, random);
        int visitors = 300;
        int inside = 0;
        for (int v = 0; v < visitors; v++) {
            Pace pace = Pace.fromBuckets(offers.buckets(Pace.WINDOW_BUCKETS), 0, false);
            long ahead = random.nextLong((long) (rate * 1200) + 1);
            QueueStatus.EstimatedWait band =
                    QueueStatus.EstimatedWait.of(QueueStatus.Position.around(ahead), pace.perSecond(), pace);
            long stays = 0;
            for (long i = 0; i < ahead; i++) {
                if (random.nextDouble() >= leaving) {
                    stays++;
                }
            }
            double wait = offers.secondsUntil(stays + 1);
            if (wait >= band.min() && wait <= band.max()) {
                inside++;
            }
        }
        assertThat(inside)
                .as(
                        "seed %d: rate %.2f/s, gamma shape %.1f, %.1f %% leave; inside %d of %d",
                        seed, rate, shape, leaving * 100, inside, visitors)
                .isGreaterThanOrEqualTo(visitors * 9 / 10);
    }

    @Test
    void isNoWiderThanNeededAtASteadyPace() {
        OfferProcess offers = new OfferProcess(10, 0, new SplittableRandom(42));
        Pace pace = Pace.fromBuckets(offers.buckets(Pace.WINDOW_BUCKETS), 0, false);
        QueueStatus.EstimatedWait band =
                QueueStatus.EstimatedWait.of(QueueStatus.Position.around(3_000), pace.perSecond(), pace);
        assertThat(band.caveat()).isNull();
        // 3,000 ahead at 10/s: about 300 s
        assertThat(band.min()).isBetween(230L, 300L);
        assertThat(band.max()).isBetween(300L, 400L);
    }

    @Test
    void narrowsAsTheVisitorNearsTheFront() {
        Pace pace = Pace.fromBuckets(new OfferProcess(5, 3, new SplittableRandom(7)).buckets(60), 0, false);
        long previousWidth = Long.MAX_VALUE;
        for (long ahead = 20_000; ahead >= 0; ahead = ahead * 9 / 10 - 1) {
            QueueStatus.EstimatedWait band =
                    QueueStatus.EstimatedWait.of(QueueStatus.Position.around(ahead), pace.perSecond(), pace);
            long width = band.max() - band.min();
            assertThat(width).as("%d ahead: %s", ahead, band).isLessThanOrEqualTo(previousWidth);
            previousWidth = width;
        }
        assertThat(previousWidth).as("at the front").isLessThanOrEqualTo(15);
    }

    @Test
    void saysItIsMeasuringBeforeEnoughBucketsAndIsWideFromTheRate() {
        QueueStatus.Position ahead = QueueStatus.Position.around(400);
        QueueStatus.EstimatedWait none = QueueStatus.EstimatedWait.of(ahead, 10, null);
        QueueStatus.EstimatedWait few =
                QueueStatus.EstimatedWait.of(ahead, 10, Pace.fromBuckets(new long[] {50, 50}, 0, false));
        assertThat(none.caveat()).isEqualTo(EstimateCaveat.MEASURING);
        assertThat(few).isEqualTo(none);
        assertThat(none.min()).as("no faster than the rate").isLessThanOrEqualTo(36);
        assertThat(none.max()).as("down to a quarter of the rate").isGreaterThanOrEqualTo(160);
        QueueStatus.EstimatedWait floored = QueueStatus.EstimatedWait.of(ahead, 10, new Pace(0, 0, 0, 0, 1, false));
        assertThat(floored.max())
                .as("the measured floor, 1/s, bounds the slow end")
                .isGreaterThanOrEqualTo(401);
    }

    @Test
    void widensAndSaysSlowedWhenTheRecentPaceFalls() {
        long[] counts = new long[60];
        java.util.Arrays.fill(counts, 0, 54, 50);
        java.util.Arrays.fill(counts, 54, 60, 15);
        Pace slowed = Pace.fromBuckets(counts, 0, false);
        QueueStatus.Position ahead = QueueStatus.Position.around(600);
        QueueStatus.EstimatedWait band = QueueStatus.EstimatedWait.of(ahead, 10, slowed);
        assertThat(band.caveat()).isEqualTo(EstimateCaveat.SLOWED);
        // the recent pace, 3/s, makes 601 offers in about 200 s: the band reaches beyond it
        assertThat(band.max()).isGreaterThanOrEqualTo(200);
        QueueStatus.EstimatedWait steady =
                QueueStatus.EstimatedWait.of(ahead, 10, Pace.fromBuckets(filled(50), 0, false));
        assertThat(band.max() - band.min()).isGreaterThan(steady.max() - steady.min());
    }

    @Test
    void widensAndSaysSpedUpWhenTheRecentPaceRises() {
        long[] counts = new long[60];
        java.util.Arrays.fill(counts, 0, 54, 20);
        java.util.Arrays.fill(counts, 54, 60, 60);
        QueueStatus.Position ahead = QueueStatus.Position.around(600);
        QueueStatus.EstimatedWait band = QueueStatus.EstimatedWait.of(ahead, 12, Pace.fromBuckets(counts, 0, false));
        assertThat(band.caveat()).isEqualTo(EstimateCaveat.SPED_UP);
        // 12/s recently: 541 offers (a tenth of those ahead may leave) in about 45 s
        assertThat(band.min()).isLessThanOrEqualTo(45);
    }

    @Test
    void saysResumedAfterAPauseAndIsWiderThanSteady() {
        QueueStatus.Position ahead = QueueStatus.Position.around(600);
        QueueStatus.EstimatedWait resumedEarly =
                QueueStatus.EstimatedWait.of(ahead, 10, Pace.fromBuckets(new long[] {50, 50}, 0, true));
        assertThat(resumedEarly.caveat()).isEqualTo(EstimateCaveat.RESUMED);
        QueueStatus.EstimatedWait resumed =
                QueueStatus.EstimatedWait.of(ahead, 10, Pace.fromBuckets(filled(50), 0, true));
        QueueStatus.EstimatedWait steady =
                QueueStatus.EstimatedWait.of(ahead, 10, Pace.fromBuckets(filled(50), 0, false));
        assertThat(resumed.caveat()).isEqualTo(EstimateCaveat.RESUMED);
        assertThat(steady.caveat()).isNull();
        assertThat(resumed.min()).isLessThan(steady.min());
        assertThat(resumed.max()).isGreaterThan(steady.max());
    }

    @Test
    void noEstimateWithoutARate() {
        Pace pace = Pace.fromBuckets(filled(50), 0, false);
        assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(10), 0, pace))
                .isNull();
        assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(10), Double.NaN, pace))
                .isNull();
    }

    @Test
    void measuresTheBucketsAsTheCoordinatorCountsThem() {
        long[] counts = new long[70];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = i < 10 ? 1_000 : (i % 2 == 0 ? 10 : 20);
        }
        Pace pace = Pace.fromBuckets(counts, 2, true);
        assertThat(pace.buckets()).as("the last 60").isEqualTo(60);
        assertThat(pace.perSecond()).isEqualTo(3.0);
        assertThat(pace.recentPerSecond()).isEqualTo(3.0);
        // sample variance of 10,20,10,20,...: 25 * 60 / 59, per second over 5 s buckets
        assertThat(pace.variance()).isCloseTo(25.0 * 60 / 59 / 5, org.assertj.core.data.Offset.offset(1e-9));
        Pace stored = Pace.decode(pace.encode());
        assertThat(stored.variance()).isCloseTo(pace.variance(), org.assertj.core.data.Offset.offset(1e-4));
        assertThat(stored.encode()).isEqualTo(pace.encode());
        assertThat(stored.resumed()).isTrue();
        assertThat(Pace.decode("")).isNull();
    }

    private static long[] filled(long count) {
        long[] counts = new long[Pace.WINDOW_BUCKETS];
        java.util.Arrays.fill(counts, count);
        return counts;
    }

    private static long poisson(double mean, SplittableRandom random) {
        if (mean > 30) {
            return Math.max(0, Math.round(mean + Math.sqrt(mean) * gaussian(random)));
        }
        double limit = Math.exp(-mean);
        double product = random.nextDouble();
        long k = 0;
        while (product > limit) {
            product *= random.nextDouble();
            k++;
        }
        return k;
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** Marsaglia and Tsang, shape >= 1. */
    private static double gamma(double shape, SplittableRandom random) {
        double d = shape - 1.0 / 3;
        double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x = gaussian(random);
            double v = Math.pow(1 + c * x, 3);
            if (v > 0 && Math.log(1 - random.nextDouble()) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }
}
