package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import java.util.Map;
import java.util.Objects;

/**
 * An expected refusal: answered by {@link ProblemHandler} as {@code application/problem+json} of its {@link ProblemType},
 * with the message as {@code detail} and the properties as extra members. The message and the properties are shown to
 * the caller, so they never carry secrets, tokens or visitor ids. Services may subclass it. Being expected, it has no
 * stack trace of its own; a failure behind it (a store or a peer that did not answer) is kept as its cause, for the logs
 * only.
 */
public class ProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ProblemType problem;

    private final transient Map<String, Object> properties;

    public ProblemException(ProblemType problem, String detail) {
        this(problem, detail, Map.of());
    }

    public ProblemException(ProblemType problem, String detail, Throwable cause) {
        this(problem, detail, Map.of(), cause);
    }

    public ProblemException(ProblemType problem, String detail, Map<String, Object> properties) {
        this(problem, detail, properties, null);
    }

    public ProblemException(ProblemType problem, String detail, Map<String, Object> properties, Throwable cause) {
        super(detail, cause, false, false);
        this.problem = Objects.requireNonNull(problem, "problem");
        this.properties = Map.copyOf(properties);
    }

    /** The problem to answer with. */
    public ProblemType problem() {
        return problem;
    }

    /** Extra members of the problem document (RFC 9457 extension members). */
    public Map<String, Object> properties() {
        return properties;
    }
}
