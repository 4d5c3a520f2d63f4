package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.slf4j.MDC;

/**
 * Request correlation: the caller's {@code X-Request-Id} when well formed (the gateway forwards one on every call),
 * a new one otherwise. It is put in the logging context under {@value #MDC_KEY} (the key every service's log pattern
 * prints), echoed on the response, and removed from the context when the request is done.
 */
public final class RequestIdFilter extends WebKitFilter {

    /** The MDC key of the request id; a client forwarding the id on an outgoing call reads it from here. */
    public static final String MDC_KEY = "requestId";

    /** The longest request id kept; longer ones are replaced. */
    static final int MAX_LENGTH = 100;

    RequestIdFilter() {}

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String presented = request.getHeader(Headers.REQUEST_ID);
        String requestId = isWellFormed(presented) ? presented : newRequestId();
        MDC.put(MDC_KEY, requestId);
        response.setHeader(Headers.REQUEST_ID, requestId);
        try {
            chain.doFilter(request, response);
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    /**
     * 1 to 100 of {@code A-Z a-z 0-9 . _ : -}: every id the services kept before ({@code [A-Za-z0-9._-]{1,64}}) and
     * every id the gateway forwards ({@code [A-Za-z0-9._:-]{8,100}}, or its own UUID).
     */
    static boolean isWellFormed(String id) {
        if (id == null || id.isEmpty() || id.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '.'
                    || c == '_'
                    || c == ':'
                    || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    /** A correlation id is not a secret: a fast thread-local generator, not {@code SecureRandom}. */
    static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }
}
