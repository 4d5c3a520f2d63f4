package dev.waitroom.coordinator.admission;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

/** The problems of claims and sessions, each with a stable type. */
final class AdmissionProblems {

	private AdmissionProblems() {
	}

	static CoordinatorException offerExpired() {
		return new CoordinatorException(ProblemKind.GONE, "offer-expired",
				"Your offer expired before it was claimed. The event's expired-offer policy has been applied.");
	}

	static CoordinatorException noOffer() {
		return new CoordinatorException(ProblemKind.CONFLICT, "no-offer", "There is no offer to claim for you.");
	}

	static CoordinatorException noLiveSession() {
		return new CoordinatorException(ProblemKind.CONFLICT, "no-live-session",
				"You have no live shopping session for this event.");
	}

	static CoordinatorException sessionEnded() {
		return new CoordinatorException(ProblemKind.CONFLICT, "session-ended",
				"This shopping session has ended and its place has been released.");
	}

	static CoordinatorException sessionNotFound() {
		return new CoordinatorException(ProblemKind.NOT_FOUND, "session-not-found",
				"No shopping session with this id for this event.");
	}

}
