package dev.waitroom.coordinator.lanes;

import java.util.Arrays;

/**
 * Splits each tick's offers among an event's lanes by their shares (docs/operating/lanes-and-access-codes.md). Each
 * lane holds a credit: every tick adds to the lanes that have someone waiting their share of the tick's offers
 * (shares renormalised among them, so a lane nobody waits in gives its share to the others and no capacity is
 * wasted), and each offer goes to the lane with the most credit that still has a candidate, which spends one. So one
 * tick's offers follow the shares within one offer of rounding, and a small lane is not starved when a tick has fewer
 * offers than lanes: its credit carries over to the next tick. Credit is kept within one offer either way, so a lane
 * that was empty or short does not make up for it later in a burst.
 *
 * <p>One per event on the ticker that leads it; not thread-safe (an event's ticks run one at a time).
 */
public final class LaneSplit {

    private static final double MAX_CREDIT = 1;

    private final double[] credit;

    public LaneSplit(int lanes) {
        this.credit = new double[lanes];
    }

    /**
     * How many of {@code offers} each lane gets, given each lane's share and how many candidates it has; never more
     * than a lane has, and {@code min(offers, sum of available)} in all.
     */
    public int[] split(int offers, double[] shares, int[] available) {
        int lanes = this.credit.length;
        if (shares.length != lanes || available.length != lanes) {
            throw new IllegalArgumentException("one share and one count per lane");
        }
        int[] taken = new int[lanes];
        double active = 0;
        for (int i = 0; i < lanes; i++) {
            if (available[i] > 0) {
                active += shares[i];
            }
        }
        int waitingLanes = (int) Arrays.stream(available).filter(a -> a > 0).count();
        for (int i = 0; i < lanes; i++) {
            if (available[i] <= 0) {
                this.credit[i] = 0;
            } else {
                // lanes of share 0 (a general lane the declared ones leave nothing) only take what others cannot
                double share = active > 0 ? shares[i] / active : 1.0 / waitingLanes;
                this.credit[i] += offers * share;
            }
        }
        for (int k = 0; k < offers; k++) {
            int best = pick(taken, available, shares, true);
            if (best < 0) {
                best = pick(taken, available, shares, false);
            }
            if (best < 0) {
                break;
            }
            taken[best]++;
            this.credit[best] -= 1;
        }
        for (int i = 0; i < lanes; i++) {
            this.credit[i] = Math.max(-MAX_CREDIT, Math.min(MAX_CREDIT, this.credit[i]));
        }
        return taken;
    }

    /** The lane with the most credit that still has a candidate; with {@code sharing}, among lanes of a share only. */
    private int pick(int[] taken, int[] available, double[] shares, boolean sharing) {
        int best = -1;
        for (int i = 0; i < this.credit.length; i++) {
            if (taken[i] < available[i]
                    && (!sharing || shares[i] > 0)
                    && (best < 0 || this.credit[i] > this.credit[best])) {
                best = i;
            }
        }
        return best;
    }
}
