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

    private final PathRules protectedPaths;

    private final PathRules publicPaths;

    CredentialFilter(PathRules protectedPaths, PathRules publicPaths) {
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
        if (protectedPaths.matches(method, path, true) && !publicPaths.matches(method, path, false)) {
            filterProtected(request, response, chain, path);
            return;
        }
        chain.doFilter(request, response);
    }

    /**
     * A request on a protected path: passed down the chain when it carries the credential, refused otherwise.
     *
     * @param path the normalised path
     */
    abstract void filterProtected(
            HttpServletRequest request, HttpServletResponse response, FilterChain chain, String path)
            throws ServletException, IOException;
}
