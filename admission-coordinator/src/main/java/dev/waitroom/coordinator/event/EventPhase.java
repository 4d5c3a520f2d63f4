package dev.waitroom.coordinator.event;

import java.util.EnumSet;
import java.util.Set;

/** Sale phase: SCHEDULED (pre-sale) -> OPEN -> ENDED. */
public enum EventPhase {

	SCHEDULED, OPEN, ENDED;

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

}
