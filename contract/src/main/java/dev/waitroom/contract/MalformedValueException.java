package dev.waitroom.contract;

/**
 * A value from the wire that breaks its format (an event id, an enum name). Each service answers it with the problem
 * it names, so a bad event id gets the same answer from every service.
 */
public class MalformedValueException extends IllegalArgumentException {

    private final ProblemType problem;

    public MalformedValueException(ProblemType problem, String detail) {
        super(detail);
        this.problem = problem;
    }

    public MalformedValueException(String detail) {
        this(ProblemType.MALFORMED_REQUEST, detail);
    }

    /** The problem to answer with. */
    public ProblemType problem() {
        return problem;
    }
}
