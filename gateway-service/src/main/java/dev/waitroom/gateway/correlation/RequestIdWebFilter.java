package dev.waitroom.gateway.correlation;

import dev.waitroom.contract.Headers;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Gives every request a correlation id: the client's {@code X-Request-Id} when well formed,
 * a new one otherwise. It is forwarded upstream, echoed to the client and written in the access
 * log (method, path, status, duration; never cookies, tokens or query strings).
 */
@Component
public class RequestIdWebFilter implements WebFilter, Ordered {

    /** Exchange attribute holding the request id, for log lines elsewhere. */
    public static final String ATTRIBUTE = RequestIdWebFilter.class.getName() + ".id";

    private static final String MDC_KEY = "requestId";

    private static final Pattern WELL_FORMED = Pattern.compile("[A-Za-z0-9._:-]{8,100}");

    private static final Logger access = LoggerFactory.getLogger("dev.waitroom.gateway.access");

    @Override
    public int getOrder() {
        // right after the edge status filter, which answers most polls before anything else runs
        return Ordered.HIGHEST_PRECEDENCE + 1;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String requestId = requestIdOf(exchange.getRequest());
        ServerHttpRequest request = exchange.getRequest()
                .mutate()
                .headers(h -> h.set(Headers.REQUEST_ID, requestId))
                .build();
        ServerWebExchange mutated = exchange.mutate().request(request).build();
        mutated.getAttributes().put(ATTRIBUTE, requestId);
        mutated.getResponse().getHeaders().set(Headers.REQUEST_ID, requestId);
        long started = System.nanoTime();
        return chain.filter(mutated).doFinally(signal -> log(mutated, requestId, started));
    }

    private static void log(ServerWebExchange exchange, String requestId, long started) {
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
        withRequestId(requestId, () -> {
            if (routine) {
                access.debug(line, args);
            } else {
                access.info(line, args);
            }
        });
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
        if (supplied != null && WELL_FORMED.matcher(supplied).matches()) {
            return supplied;
        }
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return new UUID(random.nextLong(), random.nextLong()).toString();
    }

    /** The id of this exchange's request, for log lines. */
    public static String of(ServerWebExchange exchange) {
        Object id = exchange.getAttribute(ATTRIBUTE);
        return id == null ? "-" : id.toString();
    }
}
