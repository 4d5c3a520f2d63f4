package dev.waitroom.coordinator.problems;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;

/**
 * A refusal or failure of the coordinator, answered as its problem type from the catalogue. The message is shown to
 * the caller, so it never carries visitor ids or tokens. A failure keeps what caused it (for the logs only).
 */
public class CoordinatorException extends ProblemException {

    private static final long serialVersionUID = 1L;

    public CoordinatorException(ProblemType problem, String message) {
        super(problem, message);
    }

    public CoordinatorException(ProblemType problem, String message, Throwable failure) {
        super(problem, message, failure);
    }
}
