package dev.waitroom.gateway.correlation;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.FilterOrder;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.propagation.Propagator;
import java.util.List;
import java.util.Locale;
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
 * tests and support cases), else the trace id (without tracing, a fresh id in the same 32-hex format). It is
 * forwarded upstream, echoed to the client and written, with the trace and span ids, in the access log (method, path,
 * status, duration; never cookies, tokens or query strings) and in every other line the gateway writes about the
 * request ({@link #withCorrelation}). See docs/operating/observability.md.
 */
@Component
public class RequestIdWebFilter implements WebFilter, Ordered {

    /** Exchange attribute holding the request's {@link Correlation}, for log lines elsewhere. */
    public static final String ATTRIBUTE = RequestIdWebFilter.class.getName() + ".correlation";

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

    private static final String MDC_TRACE = "traceId";

    private static final String MDC_SPAN = "spanId";

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._:-]{8,100}");

    private static final Logger access = LoggerFactory.getLogger("dev.waitroom.gateway.access");

    /**
     * INFO access lines (non-GET requests) a second at most; the rest are dropped and counted in the next line written
     * (docs/operating/observability.md#the-access-log). GET lines are at DEBUG and not limited: DEBUG is for a
     * test or a support case, never for a sale.
     */
    static final int INFO_LINES_PER_SECOND = 20;

    private final LineBudget infoLines = new LineBudget(INFO_LINES_PER_SECOND, System::nanoTime);

    private final @Nullable Tracer tracer;

    private final @Nullable Propagator propagator;

    public RequestIdWebFilter(ObjectProvider<Tracer> tracer, ObjectProvider<Propagator> propagator) {
        Tracer available = tracer.getIfAvailable();
        // tracing's no-op tracer (Boot's when the OpenTelemetry auto-configuration is left out) counts as none: its
        // spans have an empty trace id, which would make an empty request id
        this.tracer = available == Tracer.NOOP ? null : available;
        this.propagator = this.tracer == null ? null : propagator.getIfAvailable();
    }

    @Override
    public int getOrder() {
        // right after the edge status filter, which answers most polls before anything else runs
        return FilterOrder.REQUEST_ID;
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
        Correlation correlation = new Correlation(requestId, traceId, spanId);
        mutated.getAttributes().put(ATTRIBUTE, correlation);
        mutated.getResponse().getHeaders().set(Headers.REQUEST_ID, requestId);
        long started = System.nanoTime();
        // doFinally runs on completion, error and cancel (a client that disconnects): the span always ends
        return chain.filter(mutated).doFinally(signal -> {
            log(mutated, correlation, started);
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

    private void log(ServerWebExchange exchange, Correlation correlation, long started) {
        ServerHttpRequest request = exchange.getRequest();
        boolean routine = HttpMethod.GET.equals(request.getMethod());
        if (routine ? !access.isDebugEnabled() : !access.isInfoEnabled()) {
            return;
        }
        long dropped = routine ? 0 : infoLines.take();
        if (dropped < 0) {
            return;
        }
        if (dropped > 0) {
            access.info(
                    "{} access lines dropped: more than {} requests a second were not GETs",
                    dropped,
                    INFO_LINES_PER_SECOND);
        }
        String line = "{} {} -> {} in {} ms";
        Object[] args = {
            request.getMethod(),
            request.getPath().value(),
            exchange.getResponse().getStatusCode(),
            (System.nanoTime() - started) / 1_000_000
        };
        correlation.run(() -> {
            if (routine) {
                access.debug(line, args);
            } else {
                access.info(line, args);
            }
        });
    }

    /**
     * Runs a logging action with this exchange's request id, trace id and span id in the MDC ({@code requestId},
     * {@code traceId}, {@code spanId}, as every service logs them), so the line carries the trace the client was given
     * as {@code X-Request-Id}. The gateway's own code logs through this wherever it has the exchange: the span is
     * started here by hand and never made current (reactive code changes threads between operators), so nothing else
     * would put it in the MDC. Outside this filter (an exchange it never saw) only {@code requestId} is set, to
     * {@code -}.
     */
    public static void withCorrelation(ServerWebExchange exchange, Runnable logging) {
        Object correlation = exchange.getAttribute(ATTRIBUTE);
        (correlation instanceof Correlation known ? known : Correlation.NONE).run(logging);
    }

    /**
     * What ties a request's log lines together: the request id the client was given, the edge's trace and span ids
     * ({@code null} without tracing).
     */
    public record Correlation(
            String requestId,
            @Nullable String traceId,
            @Nullable String spanId) {

        static final Correlation NONE = new Correlation("-", null, null);

        /** Runs the action with these ids in the MDC, removed afterwards (reactive threads serve many requests). */
        void run(Runnable logging) {
            MDC.put(MDC_KEY, requestId);
            if (traceId != null) {
                MDC.put(MDC_TRACE, traceId);
                MDC.put(MDC_SPAN, spanId);
            }
            try {
                logging.run();
            } finally {
                MDC.remove(MDC_KEY);
                if (traceId != null) {
                    MDC.remove(MDC_TRACE);
                    MDC.remove(MDC_SPAN);
                }
            }
        }
    }

    /**
     * The client's {@code X-Request-Id} when well formed, else a new id in the W3C trace-id format (32 lower-case hex
     * digits, not all zero) for which no trace was started: what the edge status filter answers with, so that an
     * {@code X-Request-Id} always looks like a trace id unless the client chose it, without the cost of a span per
     * poll. A correlation id is not a secret, so it comes from a fast thread-local generator, not {@code
     * SecureRandom}.
     */
    public static String requestIdOf(ServerHttpRequest request) {
        String supplied = request.getHeaders().getFirst(Headers.REQUEST_ID);
        return isWellFormed(supplied) ? supplied : newRequestId();
    }

    static boolean isWellFormed(@Nullable String id) {
        return id != null && WELL_FORMED.matcher(id).matches();
    }

    /** 128 random bits as 32 lower-case hex digits, never all zero (an invalid trace id in W3C Trace Context). */
    static String newRequestId() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong();
        long low = random.nextLong();
        if (high == 0 && low == 0) {
            low = 1;
        }
        char[] id = new char[32];
        for (int i = 15; i >= 0; i--) {
            id[i] = HEX[(int) (high & 0xF)];
            high >>>= 4;
            id[16 + i] = HEX[(int) (low & 0xF)];
            low >>>= 4;
        }
        return new String(id);
    }

    /** The trace id of this exchange's request, or {@code null} (answered at the edge, or no tracing). */
    public static @Nullable String traceIdOf(ServerWebExchange exchange) {
        return exchange.getAttribute(ATTRIBUTE) instanceof Correlation correlation ? correlation.traceId() : null;
    }

    /** The id of this exchange's request, for log lines. */
    public static String of(ServerWebExchange exchange) {
        return exchange.getAttribute(ATTRIBUTE) instanceof Correlation correlation ? correlation.requestId() : "-";
    }
}
