package dev.waitroom.queue.web;

import dev.waitroom.queue.config.SecurityProperties;
import dev.waitroom.queue.contract.Problem;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Only the gateway and the coordinator may call this service: every request but health, metrics and the
 * API description carries the internal credential, compared in constant time.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 10)
class InternalCredentialFilter extends OncePerRequestFilter {

    static final String HEADER = "X-Waitroom-Internal";

    private final byte[] expected;

    InternalCredentialFilter(SecurityProperties security) {
        this.expected = security.internalToken().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        return path.startsWith("/actuator/") || path.equals("/actuator") || path.startsWith("/v3/api-docs")
                || path.startsWith("/swagger-ui");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(HEADER);
        if (presented == null
                || !MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
            ProblemResponses.write(response, Problem.FORBIDDEN, "Calls to the queue service need the internal credential.");
            return;
        }
        chain.doFilter(request, response);
    }
}
