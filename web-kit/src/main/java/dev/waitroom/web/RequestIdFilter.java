package dev.waitroom.web;

import dev.waitroom.contract.Headers;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;
import org.slf4j.MDC;

/**
 * Request correlation and the request's trace.
 *
 * <p>With a {@link Tracer} (every service has Micrometer Tracing on the OpenTelemetry bridge): the request runs in a
 * span, the one Boot's server observation opened when the service observes its requests, else one this filter opens,
 * continuing the caller's W3C {@code traceparent} (the gateway sends one on every forwarded call; the services trust
 * it, they are reached only through the gateway and each other) or starting a new trace. Tracing puts
 * {@code traceId} and {@code spanId} in the logging context.
 *
 * <p>The request id is the caller's {@code X-Request-Id} when well formed (the gateway forwards its own on every call,
 * the trace id unless the client chose one), else the trace id, else (no tracer) a random UUID. It is put in the
 * logging context under {@value #MDC_KEY}, echoed on the response, and removed from the context when the request is
 * done. See docs/operating/observability.md.
 */
public final class RequestIdFilter extends WebKitFilter {

    /** The MDC key of the request id; a client forwarding the id on an outgoing call reads it from here. */
    public static final String MDC_KEY = "requestId";

    /** The longest request id kept; longer ones are replaced. */
    static final int MAX_LENGTH = 100;

    private final @Nullable Tracer tracer;

    private final @Nullable Propagator propagator;

    /** Without tracing: request ids only. */
    RequestIdFilter() {
        this.tracer = null;
        this.propagator = null;
    }

    /**
     * With a tracer. Tracing's no-op tracer (Spring Boot's when the OpenTelemetry auto-configuration is left out)
     * counts as none: its spans have an empty trace id, which would make an empty request id.
     */
    RequestIdFilter(Tracer tracer, Propagator propagator) {
        boolean noop = tracer == Tracer.NOOP;
        this.tracer = noop ? null : tracer;
        this.propagator = noop ? null : propagator;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Span own = null;
        Tracer.SpanInScope scope = null;
        if (tracer != null && propagator != null && tracer.currentSpan() == null) {
            own = propagator
                    .extract(request, HttpServletRequest::getHeader)
                    .kind(Span.Kind.SERVER)
                    .name("http " + request.getMethod().toLowerCase(Locale.ROOT))
                    .start();
            scope = tracer.withSpan(own);
        }
        try {
            String presented = request.getHeader(Headers.REQUEST_ID);
            String requestId = isWellFormed(presented) ? presented : fallbackId();
            MDC.put(MDC_KEY, requestId);
            response.setHeader(Headers.REQUEST_ID, requestId);
            try {
                chain.doFilter(request, response);
            } finally {
                MDC.remove(MDC_KEY);
            }
        } finally {
            if (scope != null) {
                scope.close();
            }
            if (own != null) {
                own.end();
            }
        }
    }

    /** The current trace id, or a random UUID without tracing. */
    private String fallbackId() {
        Span current = tracer == null ? null : tracer.currentSpan();
        String traceId = current == null ? null : current.context().traceId();
        return traceId == null || traceId.isEmpty() ? newRequestId() : traceId;
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
