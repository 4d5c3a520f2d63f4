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
        int unknown = 0;
        for (int v = 0; v < visitors; v++) {
            Pace pace = Pace.fromBuckets(offers.buckets(Pace.WINDOW_BUCKETS), 0, false);
            long ahead = random.nextLong((long) (rate * 1200) + 1);
            QueueStatus.EstimatedWait band =
                    QueueStatus.EstimatedWait.of(QueueStatus.Position.around(ahead), pace.perSecond(), pace);
            if (band == null) {
                unknown++;
                continue;
            }
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
                        "seed %d: rate %.2f/s, gamma shape %.1f, %.1f %% leave; inside %d of %d shown",
                        seed, rate, shape, leaving * 100, inside, visitors - unknown)
                .isGreaterThanOrEqualTo((visitors - unknown) * 9 / 10);
        assertThat(unknown)
                .as("seed %d: a steady measured pace is known, %d of %d not", seed, unknown, visitors)
                .isLessThanOrEqualTo(visitors / 20);
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
        // modelled down to a quarter of the rate (401 offers at 2.5/s: 160 s), shown to SHOWN_SPREAD of that spread
        assertThat(none.max()).as("down to a quarter of the rate, calibrated").isGreaterThanOrEqualTo((long)
                (none.min() + WaitBand.SHOWN_SPREAD * (160 - none.min())));
        Pace floor = new Pace(0, 0, 0, 0, 1, false);
        assertThat(QueueStatus.EstimatedWait.of(ahead, 10, floor))
                .as("from 10/s down to the healthy floor, 1/s, 401 offers take 36 s .. 7 min: not known yet")
                .isNull();
        QueueStatus.EstimatedWait nearTheFront =
                QueueStatus.EstimatedWait.of(QueueStatus.Position.around(20), 10, floor);
        assertThat(nearTheFront.caveat()).isEqualTo(EstimateCaveat.MEASURING);
        assertThat(nearTheFront.max())
                .as("the measured floor, 1/s, bounds the slow end")
                .isGreaterThanOrEqualTo(21);
    }

    /** A range whose upper end passes 4 times its lower end plus 2 minutes is shown as none at all. */
    private static void assertMeaningful(QueueStatus.EstimatedWait band, String inputs) {
        if (band != null) {
            assertThat(band.min()).as(inputs).isNotNegative();
            assertThat(band.max()).as(inputs).isLessThanOrEqualTo(4 * band.min() + 120);
        }
    }

    /** A number spread over many magnitudes, now and then exactly 0. */
    private static double magnitude(SplittableRandom random, double from, double to) {
        return random.nextInt(20) == 0 ? 0 : from * Math.pow(to / from, random.nextDouble());
    }

    private static Pace anyPace(SplittableRandom random) {
        return switch (random.nextInt(5)) {
            case 0 -> null;
            case 1 ->
                new Pace(
                        magnitude(random, 1e-3, 1e3),
                        magnitude(random, 1e-3, 1e4),
                        magnitude(random, 1e-3, 1e3),
                        random.nextInt(Pace.MIN_BUCKETS),
                        magnitude(random, 1e-4, 1e2),
                        random.nextBoolean());
            case 2 -> {
                // a quiet event: a handful of offers in the window, most buckets empty
                long[] counts = new long[1 + random.nextInt(Pace.WINDOW_BUCKETS)];
                for (int i = 0; i < counts.length; i++) {
                    counts[i] = random.nextInt(10) == 0 ? 1 + random.nextInt(3) : 0;
                }
                yield Pace.fromBuckets(counts, magnitude(random, 1e-4, 1), random.nextBoolean());
            }
            default -> {
                double r = magnitude(random, 1e-3, 1e3);
                yield new Pace(
                        r,
                        magnitude(random, 1e-3, 1e4),
                        r * magnitude(random, 0.01, 100),
                        Pace.MIN_BUCKETS + random.nextInt(Pace.WINDOW_BUCKETS - Pace.MIN_BUCKETS + 1),
                        magnitude(random, 1e-4, 1e2),
                        random.nextBoolean());
            }
        };
    }

    /**
     * Issue #26: ranges of 0 s .. 3.5 days (MEASURING, at the front) and 24 s .. 19.7 h (measured, a quiet event) were
     * shown. For every input, seeded (the seed is printed), the range shown is null or at most 4 times its lower end
     * plus 2 minutes: MEASURING, RESUMED, quiet, stalled, huge and tiny paces alike.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void neverShowsARangeWiderThanFourTimesItsLowerEndPlusTwoMinutes(long seed) {
        System.out.println("WaitBandTests bound: seed " + seed);
        SplittableRandom random = new SplittableRandom(seed);
        int shown = 0;
        for (int i = 0; i < 5_000; i++) {
            long low = (long) magnitude(random, 1, 1e8);
            long high = low + (random.nextBoolean() ? 0 : (long) magnitude(random, 1, 1e8));
            QueueStatus.Position ahead =
                    random.nextBoolean() ? QueueStatus.Position.around(low) : QueueStatus.Position.covering(low, high);
            double rate = random.nextInt(50) == 0 ? Double.NaN : magnitude(random, 1e-4, 1e4);
            Pace pace = anyPace(random);
            QueueStatus.EstimatedWait band = QueueStatus.EstimatedWait.of(ahead, rate, pace);
            assertMeaningful(
                    band, "seed %d, input %d: %s at rate %s, %s -> %s".formatted(seed, i, ahead, rate, pace, band));
            shown += band == null ? 0 : 1;
        }
        assertThat(shown).as("seed %d: some ranges are shown", seed).isPositive();
    }

    @Test
    void theIssuesRangesAreNotKnownYet() {
        QueueStatus.Position front = QueueStatus.Position.around(0);
        // MEASURING at the very front: from the rate, 40/s, down to a healthy floor of 0.02/s
        assertThat(QueueStatus.EstimatedWait.of(front, 40, new Pace(0, 0, 0, 0, 0.02, false)))
                .isNull();
        assertThat(QueueStatus.EstimatedWait.of(front, 40, new Pace(0, 0, 0, 2, 0.02, true)))
                .as("resumed and still measuring")
                .isNull();
        // a quiet event: 3 offers in 5 minutes, none in the last 30 s
        long[] quiet = new long[Pace.WINDOW_BUCKETS];
        quiet[3] = 1;
        quiet[20] = 1;
        quiet[40] = 1;
        Pace pace = Pace.fromBuckets(quiet, 0.01, false);
        for (long ahead : new long[] {0, 1, 5, 40}) {
            assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(ahead), 0.01, pace))
                    .as("%d ahead at %s", ahead, pace)
                    .isNull();
        }
        // and a busy, steady sale still shows its range
        Pace steady = Pace.fromBuckets(filled(50), 0, false);
        assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(2_000), 10, steady))
                .isNotNull();
        assertThat(QueueStatus.EstimatedWait.meaningful(100, 520)).isTrue();
        assertThat(QueueStatus.EstimatedWait.meaningful(100, 521)).isFalse();
        assertThat(QueueStatus.EstimatedWait.meaningful(0, 120)).isTrue();
        assertThat(QueueStatus.EstimatedWait.meaningful(0, 121)).isFalse();
    }

    @Test
    void widensAndSaysSlowedWhenTheRecentPaceFalls() {
        long[] counts = new long[60];
        java.util.Arrays.fill(counts, 0, 54, 50);
        java.util.Arrays.fill(counts, 54, 60, 15);
        Pace slowed = Pace.fromBuckets(counts, 0, false);
        QueueStatus.Position ahead = QueueStatus.Position.around(300);
        QueueStatus.EstimatedWait band = QueueStatus.EstimatedWait.of(ahead, 10, slowed);
        assertThat(band.caveat()).isEqualTo(EstimateCaveat.SLOWED);
        // the recent pace, 3/s, makes 301 offers in about 100 s: the band reaches beyond it
        assertThat(band.max()).isGreaterThanOrEqualTo(100);
        assertThat(QueueStatus.EstimatedWait.of(QueueStatus.Position.around(600), 10, slowed))
                .as("601 offers at 3 .. 9.3/s: from a minute to six and a half, too wide to say")
                .isNull();
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
