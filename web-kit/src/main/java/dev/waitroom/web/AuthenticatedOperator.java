package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import jakarta.servlet.ServletRequest;
import java.util.Optional;

/**
 * The operator the ops check authenticated for this request. A controller usually just declares a parameter of type
 * {@link Operator} (resolved by the kit; a request without one is refused with 401); code without a handler method
 * reads it here.
 */
public final class AuthenticatedOperator {

    /** The request attribute that holds the {@link Operator}. */
    public static final String ATTRIBUTE = AuthenticatedOperator.class.getName();

    /** The MDC key of the operator's name while the request is handled. */
    public static final String MDC_KEY = "operator";

    private AuthenticatedOperator() {}

    /** The operator of this request; empty off the ops paths or with the ops check off. */
    public static Optional<Operator> of(ServletRequest request) {
        return request.getAttribute(ATTRIBUTE) instanceof Operator operator ? Optional.of(operator) : Optional.empty();
    }

    /** The operator of this request; 401 {@code ops-credential-required} without one. */
    public static Operator require(ServletRequest request) {
        return of(request)
                .orElseThrow(() -> new ProblemException(
                        ProblemType.OPS_CREDENTIAL_REQUIRED, "This route needs an operator's credential."));
    }
}
