package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;

/** The problems of claims and sessions, each with a stable type. */
final class AdmissionProblems {

    private AdmissionProblems() {}

    static CoordinatorException offerExpired() {
        return new CoordinatorException(
                ProblemType.OFFER_EXPIRED,
                "Your offer expired before it was claimed. The event's expired-offer policy has been applied.");
    }

    static CoordinatorException soldOut() {
        return new CoordinatorException(
                ProblemType.SOLD_OUT,
                "The event is sold out: outstanding offers were withdrawn and nobody is admitted.");
    }

    static CoordinatorException paused() {
        return new AdmissionPausedException();
    }

    static CoordinatorException oldGeneration() {
        return new CoordinatorException(
                ProblemType.ADMISSION_OLD_GENERATION,
                "This shopping session belongs to an earlier round of the sale, which has ended.");
    }

    static CoordinatorException noOffer() {
        return new CoordinatorException(ProblemType.NO_OFFER, "There is no offer to claim for you.");
    }

    static CoordinatorException noLiveSession() {
        return new CoordinatorException(
                ProblemType.NO_LIVE_SESSION, "You have no live shopping session for this event.");
    }

    static CoordinatorException sessionEnded() {
        return new CoordinatorException(
                ProblemType.SESSION_ENDED, "This shopping session has ended and its place has been released.");
    }

    static CoordinatorException offerClaimed() {
        return new CoordinatorException(
                ProblemType.OFFER_CLAIMED,
                "This offer has been claimed already; the shopping session belongs to the browser that claimed it.");
    }

    /**
     * An offer or session of another region reached this region's coordinator: its capacity and live-session registry
     * are that region's, so only its own gate may claim, renew or release it (docs/operating/regions.md).
     */
    static CoordinatorException otherRegion() {
        return new CoordinatorException(
                ProblemType.OTHER_REGION,
                "This place belongs to another region's waiting room; continue through the address it was offered at.");
    }

    static CoordinatorException tokenOfEndedSession() {
        return new CoordinatorException(
                ProblemType.ADMISSION_SESSION_ENDED, "The shopping session of this admission token has ended.");
    }

    static CoordinatorException sessionNotFound() {
        return new CoordinatorException(
                ProblemType.SESSION_NOT_FOUND, "No shopping session with this id for this event.");
    }
}
