package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.contract.ops.OperatorCredentials;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.http.HttpHeaders;

/**
 * The operator API ({@code /admin/**} by default) needs {@code Authorization: Bearer <token>} with an operator's own
 * token; 401 with a {@code WWW-Authenticate: Bearer} challenge otherwise. The scheme matches in any case, the token
 * without the spaces around it. A {@code viewer} may read (GET, HEAD) and nothing else: 403 {@code operator-forbidden}.
 * The operator is a request attribute ({@link AuthenticatedOperator}) and in the MDC while the request is handled;
 * every change an operator makes is logged on {@value #AUDIT_LOGGER} with their name and the answer's status.
 */
final class OpsTokenFilter extends CredentialFilter {

    static final String CHALLENGE = "Bearer realm=\"waitroom-ops\"";

    /** The logger of the ops audit lines: route it to a file or a collector of its own if wanted. */
    static final String AUDIT_LOGGER = "dev.waitroom.web.OpsAudit";

    private static final Logger audit = LoggerFactory.getLogger(AUDIT_LOGGER);

    private final OperatorCredentials operators;

    OpsTokenFilter(OperatorCredentials operators, PathRules protectedPaths) {
        super(protectedPaths, PathRules.of(List.of()));
        this.operators = operators;
    }

    @Override
    void filterProtected(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String path)
            throws ServletException, IOException {
        Optional<Operator> authenticated = operators.fromAuthorization(request.getHeader(Headers.AUTHORIZATION));
        if (authenticated.isEmpty()) {
            response.setHeader(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
            ProblemResponses.write(
                    response,
                    ProblemType.OPS_CREDENTIAL_REQUIRED,
                    "The ops API needs an operator's token as a Bearer credential.",
                    request);
            return;
        }
        Operator operator = authenticated.get();
        String method = request.getMethod();
        if (!operator.permits(method)) {
            audit.warn("Ops {} {} refused: operator {} has the {} role", method, path, operator.name(), role(operator));
            ProblemResponses.write(
                    response,
                    ProblemType.OPERATOR_FORBIDDEN,
                    "Operator " + operator.name() + " has the " + role(operator)
                            + " role: it reads the ops API and changes nothing.",
                    request);
            return;
        }
        request.setAttribute(AuthenticatedOperator.ATTRIBUTE, operator);
        MDC.put(AuthenticatedOperator.MDC_KEY, operator.name());
        boolean change = !"GET".equals(method) && !"HEAD".equals(method);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(AuthenticatedOperator.MDC_KEY);
            if (change) {
                audit.info(
                        "Ops {} {} by {} ({}): {}",
                        method,
                        path,
                        operator.name(),
                        role(operator),
                        response.getStatus());
            }
        }
    }

    private static String role(Operator operator) {
        return operator.role().value();
    }
}
