package dev.waitroom.booking.holds;

import dev.waitroom.booking.Lifecycle;
import java.util.EnumSet;
import java.util.Set;

/**
 * A hold's lifecycle: {@code ACTIVE -> RELEASED | EXPIRED | CONVERTED}; {@code EXPIRED -> CONVERTED} when a late
 * payment finds the seats still free.
 */
public enum HoldState implements Lifecycle<HoldState> {
    ACTIVE,
    RELEASED,
    EXPIRED,
    CONVERTED;

    @Override
    public Set<HoldState> next() {
        return switch (this) {
            case ACTIVE -> EnumSet.of(RELEASED, EXPIRED, CONVERTED);
            case EXPIRED -> EnumSet.of(CONVERTED);
            case RELEASED, CONVERTED -> EnumSet.noneOf(HoldState.class);
        };
    }
}
