package dev.waitroom.coordinator.region;

import java.util.List;

/**
 * The published rebalancing rule (docs/operating/regions.md), a pure function of the ledger: each live, undrained region is owed
 * a share of the capacity not held centrally or by frozen and draining regions, in proportion to its waiting count
 * (equal shares when nobody waits). A region's new budget is its share, never below its own live grants (an offer or
 * session is never taken back) and never above what the other regions and the central gate leave free. A draining
 * region is owed nothing new: its budget shrinks to its live grants.
 */
public final class BudgetRule {

    private BudgetRule() {}

    /** One region's row of the ledger as the rule reads it. */
    public record Row(String region, int slots, long live, long waiting, boolean frozen, boolean draining) {

        /** What the row holds of the ceiling: its slots, or its live grants if more (a budget being reconciled). */
        long held() {
            return Math.max(this.slots, this.live);
        }
    }

    /** A region's new budget and its share of the admission rate. */
    public record Decision(int slots, double share) {}

    /**
     * The budget for {@code me}, which reports {@code waiting} now. {@code rows} are every region's rows (with or
     * without one for {@code me}); {@code ceiling} and {@code centralLive} are the event's.
     */
    public static Decision decide(
            int ceiling, long centralLive, List<Row> rows, String me, long waiting, boolean meDraining) {
        long live = 0;
        long others = 0;
        long unavailable = 0;
        long weights = Math.max(0, waiting);
        int sharers = 1;
        for (Row row : rows) {
            if (row.region().equals(me)) {
                live = row.live();
                continue;
            }
            others += row.held();
            if (row.frozen() || row.draining()) {
                unavailable += row.held();
            } else {
                weights += Math.max(0, row.waiting());
                sharers++;
            }
        }
        long headroom = ceiling - centralLive - others;
        if (meDraining) {
            return new Decision((int) live, 0);
        }
        long pool = Math.max(0, ceiling - centralLive - unavailable);
        double share = weights == 0 ? 1.0 / sharers : (double) Math.max(0, waiting) / weights;
        long target = (long) Math.floor(pool * share);
        long slots = Math.max(live, Math.min(target, headroom));
        return new Decision((int) slots, share);
    }
}
