package dev.waitroom.booking.access;

import dev.waitroom.web.ProblemException;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Checks the gateway's assertion of a shop request as soon as it arrives, right after the web kit's internal
 * credential: before fault injection's latency or a slow body could age a seconds-long assertion, and before a
 * request that did not come through the gateway costs anything more.
 */
final class ShopAssertionFilter extends OncePerRequestFilter {

    private final GatewayAssertions assertions;

    ShopAssertionFilter(GatewayAssertions assertions) {
        this.assertions = assertions;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        return !isShopRoute(request.getRequestURI());
    }

    /** {@code /events/{eventId}/shop} and below, as {@link AccessConfiguration} guards them. */
    static boolean isShopRoute(String path) {
        if (!path.startsWith("/events/")) {
            return false;
        }
        int slash = path.indexOf('/', "/events/".length());
        return slash > 0
                && path.startsWith("/shop", slash)
                && (path.length() == slash + 5 || path.charAt(slash + 5) == '/');
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        try {
            assertions.of(request);
        } catch (ProblemException refused) {
            ProblemResponses.write(response, refused.problem(), refused.getMessage(), request);
            return;
        }
        chain.doFilter(request, response);
    }
}
