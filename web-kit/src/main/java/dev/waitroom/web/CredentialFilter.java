package dev.waitroom.web;

import dev.waitroom.contract.ProblemType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * A credential required on some paths, checked on the normalised path (see {@link RequestPaths}); a path that could be
 * read two ways is refused with 400 {@code BAD_PATH} rather than guessed at. Protected paths match in any case,
 * public ones only as written: when in doubt, the credential is required.
 */
abstract class CredentialFilter extends WebKitFilter {

    private final String secret;

    private final PathRules protectedPaths;

    private final PathRules publicPaths;

    CredentialFilter(String secret, PathRules protectedPaths, PathRules publicPaths) {
        this.secret = secret;
        this.protectedPaths = protectedPaths;
        this.publicPaths = publicPaths;
    }

    @Override
    protected final void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = RequestPaths.normalised(request);
        if (path == null) {
            // no instance: the path is exactly what is not accepted
            ProblemResponses.write(
                    response,
                    ProblemType.BAD_PATH,
                    "The path contains dot segments, encoded separators or characters this service does not accept.",
                    null);
            return;
        }
        String method = request.getMethod();
        if (protectedPaths.matches(method, path, true)
                && !publicPaths.matches(method, path, false)
                && !carriesCredential(request, secret)) {
            refuse(request, response);
            return;
        }
        chain.doFilter(request, response);
    }

    /** Whether the request presents the secret; compared in constant time. */
    abstract boolean carriesCredential(HttpServletRequest request, String secret);

    abstract void refuse(HttpServletRequest request, HttpServletResponse response) throws IOException;
}
