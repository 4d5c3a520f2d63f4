package dev.waitroom.booking.access;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.web.filter.OncePerRequestFilter;

import dev.waitroom.booking.SecurityProperties;
import dev.waitroom.booking.problem.ProblemType;
import dev.waitroom.booking.problem.ProblemWriter;

/** {@code /admin/**} needs {@code Authorization: Bearer <ops token>}. */
final class OpsTokenFilter extends OncePerRequestFilter {

    private final SecurityProperties security;
    private final ProblemWriter problems;

    OpsTokenFilter(SecurityProperties security, ProblemWriter problems) {
        this.security = security;
        this.problems = problems;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String authorization = request.getHeader("Authorization");
        String presented = authorization != null && authorization.regionMatches(true, 0, "Bearer ", 0, 7)
                ? authorization.substring(7).trim() : null;
        if (!security.isOpsToken(presented)) {
            response.setHeader("WWW-Authenticate", "Bearer realm=\"waitroom-ops\"");
            problems.write(response, ProblemType.OPS_CREDENTIAL_REQUIRED, "send the ops token as a Bearer credential",
                    request.getRequestURI());
            return;
        }
        chain.doFilter(request, response);
    }
}
