package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Calls between services carry the shared internal credential ({@code X-Waitroom-Internal}) on every protected path
 * that is not public; 403 otherwise. The current value and, during a rotation, the previous one are accepted.
 */
final class InternalCredentialFilter extends CredentialFilter {

    private final String token;

    private final String previous;

    InternalCredentialFilter(String token, String previous, PathRules protectedPaths, PathRules publicPaths) {
        super(protectedPaths, publicPaths);
        this.token = token;
        this.previous = previous == null || previous.isBlank() ? null : previous;
    }

    InternalCredentialFilter(String token, PathRules protectedPaths, PathRules publicPaths) {
        this(token, null, protectedPaths, publicPaths);
    }

    @Override
    void filterProtected(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String path)
            throws ServletException, IOException {
        String presented = request.getHeader(Headers.INTERNAL);
        // both compared, so the time taken does not tell which value matched
        boolean current = ConstantTime.equals(token, presented);
        boolean old = previous != null && ConstantTime.equals(previous, presented);
        if (current | old) {
            chain.doFilter(request, response);
            return;
        }
        ProblemResponses.write(
                response,
                ProblemType.INTERNAL_CREDENTIAL_REQUIRED,
                "This service only answers calls that carry the internal credential.",
                request);
    }
}
