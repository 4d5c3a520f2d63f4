package dev.waitroom.coordinator.event;

import java.util.EnumSet;
import java.util.Set;

/** Operating mode of an event. Only QUEUEING issues offers. */
public enum OperatingMode {

	QUEUEING, PAUSED, SOLD_OUT, BYPASS;

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

}
