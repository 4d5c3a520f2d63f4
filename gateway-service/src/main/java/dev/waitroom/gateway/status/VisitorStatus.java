package dev.waitroom.gateway.status;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;

/**
 * The visitor status body (docs/ARCHITECTURE.md#the-status-body), as the edge answers it: the edge only ever answers
 * for a WAITING entry, so {@code offer} is always null here.
 */
record VisitorStatus(String state, EventPhase phase, OperatingMode mode, Position position,
		EstimatedWait estimatedWaitSeconds, Object offer, int pollAfterSeconds, String announcement,
		String receipt) {

	/** How many waiting visitors are ahead: a band, never an exact count. */
	record Position(long aheadMin, long aheadMax) {

		Position {
			if (aheadMin < 0 || aheadMax < aheadMin) {
				throw new IllegalArgumentException("position band must satisfy 0 <= aheadMin <= aheadMax");
			}
		}

	}

	/** Seconds until an offer is expected: a range. */
	record EstimatedWait(long min, long max) {

		EstimatedWait {
			if (min < 0 || max < min) {
				throw new IllegalArgumentException("estimate must satisfy 0 <= min <= max");
			}
		}

	}

}
