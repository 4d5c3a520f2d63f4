package dev.waitroom.booking.problem;

import java.util.Map;
import java.util.Objects;

/** An expected refusal, answered as problem+json of its {@link ProblemType}. Carries no personal data. */
public class ShopProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final ProblemType problem;
    private final transient Map<String, Object> properties;

    public ShopProblemException(ProblemType problem, String detail) {
        this(problem, detail, Map.of());
    }

    public ShopProblemException(ProblemType problem, String detail, Map<String, Object> properties) {
        super(detail, null, false, false);
        this.problem = Objects.requireNonNull(problem, "problem");
        this.properties = Map.copyOf(properties);
    }

    public ProblemType problem() {
        return problem;
    }

    public Map<String, Object> properties() {
        return properties;
    }
}
