package dev.waitroom.contract;

import java.util.EnumSet;
import java.util.Set;

/** An event's operating mode, set by operators through the coordinator. Only QUEUEING issues offers. */
public enum OperatingMode {
    QUEUEING,
    PAUSED,
    SOLD_OUT,
    BYPASS;

    public static final OperatingMode DEFAULT = QUEUEING;

    public Set<OperatingMode> next() {
        return switch (this) {
            case QUEUEING -> EnumSet.of(PAUSED, SOLD_OUT, BYPASS);
            case PAUSED -> EnumSet.of(QUEUEING, SOLD_OUT, BYPASS);
            case BYPASS -> EnumSet.of(QUEUEING, PAUSED, SOLD_OUT);
            // More inventory may appear (cancelled orders): ops can resume a sold-out event.
            case SOLD_OUT -> EnumSet.of(QUEUEING);
        };
    }

    public boolean canMoveTo(OperatingMode target) {
        return next().contains(target);
    }

    public boolean offers() {
        return this == QUEUEING;
    }

    /** The mode named on the wire; unknown or missing is a {@link MalformedValueException}. */
    public static OperatingMode parse(String value) {
        return WireEnums.parse(OperatingMode.class, value, "mode");
    }
}
