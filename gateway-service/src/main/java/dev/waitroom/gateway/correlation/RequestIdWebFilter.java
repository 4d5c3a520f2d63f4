package dev.waitroom.gateway.correlation;

import dev.waitroom.contract.Headers;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every request that passes the edge status filter a trace and a correlation id.
 *
 * <p>The trace: a new one for every request, started here in a span of its own; a client's {@code traceparent},
 * {@code tracestate}, {@code baggage} and B3 headers are not trusted (a client could otherwise choose trace ids, join
 * its requests to another visitor's trace, or force sampling) and are removed before forwarding. The span goes to the
 * queue-service, the coordinator and booking as W3C {@code traceparent}, injected here (Spring Cloud Gateway's own
 * client observation stays off: it leaked on client disconnects) and ended when the exchange completes, fails or is
 * cancelled. Status polls answered at the edge never get here and cost no span.
 *
 * <p>The request id: the client's {@code X-Request-Id} when well formed (a label of the client's own, kept for load
 * tests and support cases), else the trace id. It is forwarded upstream, echoed to the client and written, with the
 * trace and span ids, in the access log (method, path, status, duration; never cookies, tokens or query strings).
 * See docs/observability/tracing-and-logs.md.
 */
@Component
public class RequestIdWebFilter implements WebFilter, Ordered {

    /** Exchange attribute holding the request id, for log lines elsewhere. */
    public static final String ATTRIBUTE = RequestIdWebFilter.class.getName() + ".id";

    /** Exchange attribute holding the trace id (absent without tracing). */
    public static final String TRACE_ATTRIBUTE = RequestIdWebFilter.class.getName() + ".trace";

    /** Trace context headers a client may send and the edge does not trust. */
    static final List<String> UNTRUSTED_TRACE_HEADERS = List.of(
            "traceparent",
            "tracestate",
            "baggage",
            "b3",
            "X-B3-TraceId",
            "X-B3-SpanId",
            "X-B3-ParentSpanId",
            "X-B3-Sampled",
            "X-B3-Flags");

    private static final String MDC_KEY = "requestId";

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._:-]{8,100}");

    private static final Logger access = LoggerFactory.getLogger("dev.waitroom.gateway.access");

    private final @Nullable Tracer tracer;

    private final @Nullable Propagator propagator;

    public RequestIdWebFilter(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        this.tracer = tracer.getIfAvailable();
        this.propagator = propagator.getIfAvailable();
    }

    @Override
    public int getOrder() {
        // right after the edge status filter, which answers most polls before anything else runs
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        Span span = startSpan(exchange.getRequest());
        String traceId = span == null ? null : span.context().traceId();
        String spanId = span == null ? null : span.context().spanId();
        String supplied = exchange.getRequest().getHeaders().getFirst(Headers.REQUEST_ID);
        String requestId = isWellFormed(supplied) ? supplied : traceId != null ? traceId : newRequestId();
        ServerHttpRequest request = exchange.getRequest()
                .mutate()
                .headers(h -> {
                    UNTRUSTED_TRACE_HEADERS.forEach(h::remove);
                    h.set(Headers.REQUEST_ID, requestId);
                    if (span != null && propagator != null) {
                        // the upstream continues this span's trace: W3C traceparent (with the sampling decision)
                        propagator.inject(span.context(), h, HttpHeaders::set);
                    }
                })
                .build();
        ServerWebExchange mutated = exchange.mutate().request(request).build();
        mutated.getAttributes().put(ATTRIBUTE, requestId);
        if (traceId != null) {
            mutated.getAttributes().put(TRACE_ATTRIBUTE, traceId);
        }
        mutated.getResponse().getHeaders().set(Headers.REQUEST_ID, requestId);
        long started = System.nanoTime();
        // doFinally runs on completion, error and cancel (a client that disconnects): the span always ends
        return chain.filter(mutated).doFinally(signal -> {
            log(mutated, requestId, traceId, spanId, started);
            if (span != null) {
                span.end();
            }
        });
    }

    /** A root span: the edge never continues a client's trace context. */
    private @Nullable Span startSpan(ServerHttpRequest request) {
        if (tracer == null) {
            return null;
        }
        return tracer.spanBuilder()
                .setNoParent()
                .kind(Span.Kind.SERVER)
                .name("gateway " + request.getMethod().name().toLowerCase(Locale.ROOT))
                .start();
    }

    private static void log(
            ServerWebExchange exchange,
            String requestId,
            @Nullable String traceId,
            @Nullable String spanId,
            long started) {
        ServerHttpRequest request = exchange.getRequest();
        boolean routine = HttpMethod.GET.equals(request.getMethod());
        if (routine ? !access.isDebugEnabled() : !access.isInfoEnabled()) {
            return;
        }
        String line = "{} {} -> {} in {} ms";
        Object[] args = {
            request.getMethod(),
            request.getPath().value(),
            exchange.getResponse().getStatusCode(),
            (System.nanoTime() - started) / 1_000_000
        };
        if (traceId != null) {
            MDC.put("traceId", traceId);
            MDC.put("spanId", spanId);
        }
        try {
            withRequestId(requestId, () -> {
                if (routine) {
                    access.debug(line, args);
                } else {
                    access.info(line, args);
                }
            });
        } finally {
            MDC.remove("traceId");
            MDC.remove("spanId");
        }
    }

    /**
     * Runs a logging action with the request id in the MDC ({@code requestId}, as every service
     * logs it); reactive code changes threads, so the MDC is set only around the call.
     */
    public static void withRequestId(String requestId, Runnable logging) {
        MDC.put(MDC_KEY, requestId);
        try {
            logging.run();
        } finally {
            MDC.remove(MDC_KEY);
        }
    }

    /**
     * The client's {@code X-Request-Id} when well formed, else a new random one. A correlation id
     * is not a secret, so it comes from a fast thread-local generator, not {@code SecureRandom}.
     */
    public static String requestIdOf(ServerHttpRequest request) {
        String supplied = request.getHeaders().getFirst(Headers.REQUEST_ID);
        return isWellFormed(supplied) ? supplied : newRequestId();
    }

    static boolean isWellFormed(@Nullable String id) {
        return id != null && WELL_FORMED.matcher(id).matches();
    }

    private static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    /** The trace id of this exchange's request, or {@code null} (answered at the edge, or no tracing). */
    public static @Nullable String traceIdOf(ServerWebExchange exchange) {
        Object id = exchange.getAttribute(TRACE_ATTRIBUTE);
        return id == null ? null : id.toString();
    }

    /** The id of this exchange's request, for log lines. */
    public static String of(ServerWebExchange exchange) {
        Object id = exchange.getAttribute(ATTRIBUTE);
        return id == null ? "-" : id.toString();
    }
}
