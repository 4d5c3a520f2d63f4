package dev.waitroom.verifier.servlet;

import dev.waitroom.verifier.AdmissionRejectedException;
import dev.waitroom.verifier.AdmissionVerifier;
import dev.waitroom.verifier.VerifiedAdmission;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Lets a request through only with a valid {@code Waitroom-Admission} header for its method and raw path
 * ({@link HttpServletRequest#getRequestURI()}, percent-encoding kept, no query) and leaves the {@link
 * VerifiedAdmission} in the request attribute {@link VerifiedAdmission#ATTRIBUTE}; anything else is answered 401
 * {@code application/problem+json} with type {@code https://waitroom.dev/problems/admission-header-invalid} and the
 * reason code as {@code reason}. Register it on the paths the gateway protects.
 */
public final class AdmissionFilter implements Filter {

    /** The problem type of a refusal. */
    public static final String PROBLEM_TYPE = "https://waitroom.dev/problems/admission-header-invalid";

    private final AdmissionVerifier verifier;

    public AdmissionFilter(AdmissionVerifier verifier) {
        this.verifier = Objects.requireNonNull(verifier, "verifier");
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (!(request instanceof HttpServletRequest http) || !(response instanceof HttpServletResponse reply)) {
            throw new ServletException("AdmissionFilter handles HTTP requests only");
        }
        try {
            VerifiedAdmission admission =
                    verifier.verify(http.getHeader(AdmissionVerifier.HEADER), http.getMethod(), http.getRequestURI());
            http.setAttribute(VerifiedAdmission.ATTRIBUTE, admission);
        } catch (AdmissionRejectedException e) {
            refuse(reply, e.reason().code());
            return;
        }
        chain.doFilter(request, response);
    }

    private static void refuse(HttpServletResponse reply, String reason) throws IOException {
        byte[] body = ("{\"type\":\"" + PROBLEM_TYPE + "\",\"title\":\"Waitroom admission required\",\"status\":401,"
                        + "\"detail\":\"This request needs a valid Waitroom-Admission header from the waiting room.\","
                        + "\"reason\":\"" + reason + "\"}")
                .getBytes(StandardCharsets.UTF_8);
        reply.setStatus(HttpServletResponse.SC_UNAUTHORIZED);
        reply.setContentType("application/problem+json");
        reply.setHeader("Cache-Control", "no-store");
        reply.setContentLength(body.length);
        reply.getOutputStream().write(body);
    }
}
