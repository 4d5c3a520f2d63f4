package dev.waitroom.booking.holds;

import java.util.EnumSet;
import java.util.Set;

/**
 * A hold's lifecycle: {@code ACTIVE -> RELEASED | EXPIRED | CONVERTED}; {@code EXPIRED -> CONVERTED} when a late
 * payment finds the seats still free.
 */
public enum HoldState {
    ACTIVE, RELEASED, EXPIRED, CONVERTED;

    public Set<HoldState> next() {
        return switch (this) {
            case ACTIVE -> EnumSet.of(RELEASED, EXPIRED, CONVERTED);
            case EXPIRED -> EnumSet.of(CONVERTED);
            case RELEASED, CONVERTED -> EnumSet.noneOf(HoldState.class);
        };
    }

    public boolean canBecome(HoldState target) {
        return next().contains(target);
    }

    /** The states a hold may be in for a transition to {@code target}, for the WHERE clause of that write. */
    static Set<HoldState> sourcesOf(HoldState target) {
        Set<HoldState> sources = EnumSet.noneOf(HoldState.class);
        for (HoldState state : values()) {
            if (state.canBecome(target)) {
                sources.add(state);
            }
        }
        return sources;
    }
}
