package dev.waitroom.coordinator.region;

/**
 * What a gate may offer of an event between two budget renewals (docs/operating/regions.md): the slots it may hold as live grants
 * and its share of the event's admission rate. A regional gate holds {@link #NONE} until its first renewal and again
 * when a renewal is fenced off; the central gate needs none (it offers under the event's ceiling).
 */
public sealed interface Allowance permits Allowance.None, Allowance.Leased {

    /** Nothing leased: no slots, no share. */
    Allowance NONE = new None();

    int slots();

    double share();

    /** Before the first renewal, or the renewal was fenced off (the region's lease is not this gate's). */
    record None() implements Allowance {

        @Override
        public int slots() {
            return 0;
        }

        @Override
        public double share() {
            return 0;
        }
    }

    /** The budget the last renewal leased. */
    record Leased(int slots, double share) implements Allowance {

        public Leased {
            if (slots < 0 || share < 0) {
                throw new IllegalArgumentException("a leased budget is never negative");
            }
        }
    }
}
