package dev.waitroom.coordinator.lanes;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LaneSplitTests {

    @Test
    void oneTicksOffersFollowTheSharesWhenEveryLaneHasPeopleWaiting() {
        LaneSplit split = new LaneSplit(3);
        assertThat(split.split(10, new double[] {0.5, 0.3, 0.2}, new int[] {100, 100, 100}))
                .containsExactly(5, 3, 2);
        assertThat(new LaneSplit(3).split(7, new double[] {0.5, 0.3, 0.2}, new int[] {100, 100, 100}))
                .satisfies(t -> assertWithinRounding(t, 7, new double[] {0.5, 0.3, 0.2}));
    }

    @Test
    void aLaneWithNobodyWaitingGivesItsShareToTheOthers() {
        assertThat(new LaneSplit(3).split(10, new double[] {0.5, 0.3, 0.2}, new int[] {0, 100, 100}))
                .containsExactly(0, 6, 4);
        assertThat(new LaneSplit(3).split(10, new double[] {0.5, 0.3, 0.2}, new int[] {2, 100, 100}))
                .as("a short lane takes what it has; the rest goes on")
                .satisfies(t -> assertThat(t[0]).isEqualTo(2))
                .satisfies(t -> assertThat(t[0] + t[1] + t[2]).isEqualTo(10));
        assertThat(new LaneSplit(2).split(5, new double[] {1.0, 0.0}, new int[] {0, 9}))
                .as("a general lane left no share still takes what the others cannot")
                .containsExactly(0, 5);
    }

    @Test
    void aSmallLaneIsNotStarvedWhenTicksHaveFewerOffersThanLanes() {
        LaneSplit split = new LaneSplit(3);
        int[] total = new int[3];
        for (int tick = 0; tick < 100; tick++) {
            int[] t = split.split(1, new double[] {0.1, 0.3, 0.6}, new int[] {50, 50, 50});
            for (int i = 0; i < 3; i++) {
                total[i] += t[i];
            }
        }
        assertThat(total).containsExactly(10, 30, 60);
    }

    /**
     * Seeded random ticks: after every tick the split never exceeds a lane's candidates, uses every offer it can, and
     * then over a run of ticks with every lane full each lane's total stays within a couple of offers of its share.
     */
    @Test
    void randomTicksNeverWasteCapacityNorOverfillALane() {
        long seed = new Random().nextLong();
        Random random = new Random(seed);
        for (int round = 0; round < 200; round++) {
            int lanes = 1 + random.nextInt(5);
            double[] shares = randomShares(random, lanes);
            LaneSplit split = new LaneSplit(lanes);
            for (int tick = 0; tick < 50; tick++) {
                int n = random.nextInt(20);
                int[] available = new int[lanes];
                for (int i = 0; i < lanes; i++) {
                    available[i] = random.nextInt(8);
                }
                int[] taken = split.split(n, shares, available);
                int sum = 0;
                for (int i = 0; i < lanes; i++) {
                    assertThat(taken[i]).as("seed %d", seed).isBetween(0, available[i]);
                    sum += taken[i];
                }
                assertThat(sum)
                        .as("seed %d", seed)
                        .isEqualTo(Math.min(n, Arrays.stream(available).sum()));
            }
            // then every lane full: each tick within rounding, the run within a couple of offers of the shares
            int[] totals = new int[lanes];
            int offeredAll = 0;
            int[] full = new int[lanes];
            Arrays.fill(full, 1000);
            for (int tick = 0; tick < 50; tick++) {
                int n = random.nextInt(20);
                int[] taken = split.split(n, shares, full);
                assertWithinRounding(taken, n, shares);
                for (int i = 0; i < lanes; i++) {
                    totals[i] += taken[i];
                }
                offeredAll += n;
            }
            double sumShares = Arrays.stream(shares).sum();
            for (int i = 0; i < lanes; i++) {
                double expected = sumShares > 0 ? offeredAll * shares[i] / sumShares : offeredAll / (double) lanes;
                assertThat((double) totals[i]).as("seed %d lane %d", seed, i).isBetween(expected - 3.5, expected + 3.5);
            }
        }
    }

    /** A tick's rounding, with the credit of up to one offer each lane carries in and out of it. */
    private static void assertWithinRounding(int[] taken, int n, double[] shares) {
        double sum = Arrays.stream(shares).sum();
        for (int i = 0; i < taken.length; i++) {
            assertThat((double) taken[i]).isBetween(n * shares[i] / sum - 3, n * shares[i] / sum + 3);
        }
    }

    private static double[] randomShares(Random random, int lanes) {
        double[] shares = new double[lanes];
        double left = 1;
        for (int i = 0; i < lanes - 1; i++) {
            shares[i] = Math.max(0.01, left * random.nextDouble() * 0.8);
            left -= shares[i];
        }
        shares[lanes - 1] = Math.max(0, left);
        return shares;
    }
}
