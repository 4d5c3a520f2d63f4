package dev.waitroom.contract;

import java.util.EnumSet;
import java.util.Set;

/** The sale phase: SCHEDULED (pre-sale) -> OPEN -> ENDED; a phase never goes back. */
public enum EventPhase {
    SCHEDULED,
    OPEN,
    ENDED;

    public Set<EventPhase> next() {
        return switch (this) {
            case SCHEDULED -> EnumSet.of(OPEN, ENDED);
            case OPEN -> EnumSet.of(ENDED);
            case ENDED -> EnumSet.noneOf(EventPhase.class);
        };
    }

    public boolean canMoveTo(EventPhase target) {
        return next().contains(target);
    }

    /** The phase named on the wire; unknown or missing is a {@link MalformedValueException}. */
    public static EventPhase parse(String value) {
        return WireEnums.parse(EventPhase.class, value, "phase");
    }
}
