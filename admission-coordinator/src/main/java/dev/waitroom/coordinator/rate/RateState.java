package dev.waitroom.coordinator.rate;

import java.util.EnumSet;
import java.util.Set;

/**
 * Whether the {@link RateController} admits. It starts PAUSED (no booking health seen yet), pauses on critical or
 * stale health and resumes, at a low factor, only after healthy windows. While ADMITTING the factor moves up and
 * down within the state.
 */
public enum RateState {
    PAUSED,
    ADMITTING;

    public Set<RateState> next() {
        return switch (this) {
            case PAUSED -> EnumSet.of(ADMITTING);
            case ADMITTING -> EnumSet.of(PAUSED);
        };
    }

    public boolean canMoveTo(RateState target) {
        return next().contains(target);
    }
}
