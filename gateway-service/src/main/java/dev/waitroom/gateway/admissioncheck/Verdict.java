package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.TokenRejectedException;

/**
 * The outcome of an admission check: allowed (no problem), or the problem the client gets.
 * {@code outcome} is the bounded metric tag.
 */
record Verdict(ProblemType problem, String outcome, String detail) {

    static final Verdict ALLOWED = new Verdict(null, "allowed", null);

    static final Verdict ALLOWED_ORDER_STATUS = new Verdict(null, "allowed-order-status", null);

    static final Verdict TOKEN_REQUIRED = new Verdict(
            ProblemType.ADMISSION_TOKEN_REQUIRED,
            "rejected-required",
            "This page needs an admission token: join the queue for this event first.");

    static final Verdict INVALID =
            new Verdict(ProblemType.ADMISSION_TOKEN_INVALID, "rejected-invalid", "This admission token is not valid.");

    static final Verdict EXPIRED = new Verdict(
            ProblemType.ADMISSION_TOKEN_EXPIRED,
            "rejected-expired",
            "This admission token has expired. Join the queue again to shop.");

    static final Verdict WRONG_EVENT = new Verdict(
            ProblemType.ADMISSION_WRONG_EVENT, "rejected-wrong-event", "This admission token is for another event.");

    static final Verdict OLD_GENERATION = new Verdict(
            ProblemType.ADMISSION_OLD_GENERATION,
            "rejected-old-generation",
            "This admission token is from an earlier sale of this event.");

    static final Verdict VISITOR_MISMATCH = new Verdict(
            ProblemType.ADMISSION_VISITOR_MISMATCH,
            "rejected-visitor-mismatch",
            "This admission token was issued to another browser.");

    static final Verdict SESSION_ENDED = new Verdict(
            ProblemType.ADMISSION_SESSION_ENDED,
            "rejected-session-ended",
            "This shopping session has ended. Join the queue again to shop.");

    static final Verdict REGISTRY_UNAVAILABLE = new Verdict(
            ProblemType.ADMISSION_UNAVAILABLE,
            "rejected-unavailable",
            "Admission cannot be confirmed right now. Existing sessions continue; please retry shortly.");

    static final Verdict UNAVAILABLE = new Verdict(
            ProblemType.ADMISSION_UNAVAILABLE,
            "rejected-unavailable",
            "Admission cannot be checked right now. Please retry shortly.");

    boolean allows() {
        return problem == null;
    }

    static Verdict of(TokenRejectedException rejection) {
        return switch (rejection.reason()) {
            case EXPIRED -> EXPIRED;
            case WRONG_EVENT -> WRONG_EVENT;
            case OLD_GENERATION -> OLD_GENERATION;
            default -> INVALID;
        };
    }
}
