package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.MessageDigest;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.slf4j.MDC;

/**
 * Calls between services carry the calling service's own credential ({@code X-Waitroom-Internal: wrs_<service>_<secret>})
 * on every protected path that is not public. This service holds only the SHA-256 of each caller's credential (the
 * current one and, during a rotation, the previous one), so reading its configuration gives no way in; a missing,
 * unknown or forged credential is 403 {@code internal-credential-required}. A valid credential on a route its service
 * is not allowed ({@code waitroom.web.callers.<service>}, matched only as written) is 403 {@code caller-not-allowed}:
 * one service's credential is not a key to every other service's routes. The caller is a request attribute
 * ({@link InternalCaller}) and in the MDC while the request is handled.
 */
final class InternalCredentialFilter extends CredentialFilter {

    private final Map<WaitroomService, byte[][]> hashes = new EnumMap<>(WaitroomService.class);

    private final Map<WaitroomService, PathRules> routes = new EnumMap<>(WaitroomService.class);

    InternalCredentialFilter(
            Map<WaitroomService, List<byte[]>> hashes,
            Map<WaitroomService, PathRules> routes,
            PathRules protectedPaths,
            PathRules publicPaths) {
        super(protectedPaths, publicPaths);
        hashes.forEach((caller, values) -> this.hashes.put(caller, values.toArray(byte[][]::new)));
        this.routes.putAll(routes);
    }

    @Override
    void filterProtected(HttpServletRequest request, HttpServletResponse response, FilterChain chain, String path)
            throws ServletException, IOException {
        String presented = request.getHeader(Headers.INTERNAL);
        WaitroomService caller = ServiceCredential.serviceOf(presented);
        byte[][] expected = caller == null ? null : hashes.get(caller);
        if (expected == null || !matchesAny(ServiceCredential.sha256(presented), expected)) {
            ProblemResponses.write(
                    response,
                    ProblemType.INTERNAL_CREDENTIAL_REQUIRED,
                    "This service only answers calls that carry a calling service's credential.",
                    request);
            return;
        }
        PathRules allowed = routes.get(caller);
        if (allowed == null || !allowed.matches(request.getMethod(), path, false)) {
            ProblemResponses.write(
                    response,
                    ProblemType.CALLER_NOT_ALLOWED,
                    "The " + caller.wireName() + " service may not call " + request.getMethod() + " on this route.",
                    request);
            return;
        }
        request.setAttribute(InternalCaller.ATTRIBUTE, caller);
        MDC.put(InternalCaller.MDC_KEY, caller.wireName());
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(InternalCaller.MDC_KEY);
        }
    }

    /** Every configured hash is compared, so the time taken does not tell which one matched. */
    private static boolean matchesAny(byte[] digest, byte[][] expected) {
        boolean matched = false;
        for (byte[] hash : expected) {
            matched |= MessageDigest.isEqual(hash, digest);
        }
        return matched;
    }
}
