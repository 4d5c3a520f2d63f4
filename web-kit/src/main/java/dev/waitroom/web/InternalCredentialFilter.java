package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Calls between services carry the shared internal credential ({@code X-Waitroom-Internal}) on every protected path
 * that is not public; 403 otherwise.
 */
final class InternalCredentialFilter extends CredentialFilter {

    InternalCredentialFilter(String token, PathRules protectedPaths, PathRules publicPaths) {
        super(token, protectedPaths, publicPaths);
    }

    @Override
    boolean carriesCredential(HttpServletRequest request, String token) {
        return ConstantTime.equals(token, request.getHeader(Headers.INTERNAL));
    }

    @Override
    void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        ProblemResponses.write(
                response,
                ProblemType.INTERNAL_CREDENTIAL_REQUIRED,
                "This service only answers calls that carry the internal credential.",
                request);
    }
}
