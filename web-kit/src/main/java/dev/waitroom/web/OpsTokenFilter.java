package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpHeaders;

/**
 * The operator API ({@code /admin/**} by default) needs {@code Authorization: Bearer <ops token>}; 401 with a
 * {@code WWW-Authenticate: Bearer} challenge otherwise. The scheme matches in any case, the token without the spaces
 * around it.
 */
final class OpsTokenFilter extends CredentialFilter {

    static final String CHALLENGE = "Bearer realm=\"waitroom-ops\"";

    OpsTokenFilter(String token, PathRules protectedPaths) {
        super(token, protectedPaths, PathRules.of(List.of()));
    }

    @Override
    boolean carriesCredential(HttpServletRequest request, String token) {
        String authorization = request.getHeader(Headers.AUTHORIZATION);
        int scheme = Headers.BEARER_PREFIX.length();
        if (authorization == null || !authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, scheme)) {
            return false;
        }
        int from = scheme;
        int to = authorization.length();
        while (from < to && authorization.charAt(from) <= ' ') {
            from++;
        }
        while (to > from && authorization.charAt(to - 1) <= ' ') {
            to--;
        }
        return ConstantTime.equals(token, authorization, from, to);
    }

    @Override
    void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setHeader(HttpHeaders.WWW_AUTHENTICATE, CHALLENGE);
        ProblemResponses.write(
                response,
                ProblemType.OPS_CREDENTIAL_REQUIRED,
                "The ops API needs the ops token as a Bearer credential.",
                request);
    }
}
