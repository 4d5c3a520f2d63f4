package dev.waitroom.booking.catalogue;

import dev.waitroom.booking.Lifecycle;
import java.util.EnumSet;
import java.util.Set;

/**
 * A seat's lifecycle. {@code HELD -> HELD} is a lapsed hold taken over by a new one (lazy expiry); a sold seat
 * never changes again.
 */
public enum SeatState implements Lifecycle<SeatState> {
    AVAILABLE,
    HELD,
    SOLD;

    @Override
    public Set<SeatState> next() {
        return switch (this) {
            case AVAILABLE -> EnumSet.of(HELD, SOLD);
            case HELD -> EnumSet.of(AVAILABLE, HELD, SOLD);
            case SOLD -> EnumSet.noneOf(SeatState.class);
        };
    }
}
