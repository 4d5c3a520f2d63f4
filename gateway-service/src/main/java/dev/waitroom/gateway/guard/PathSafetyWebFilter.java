package dev.waitroom.gateway.guard;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.problem.ProblemResponses;
import java.util.Locale;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses paths an upstream could normalise into a route the gateway never exposes (for example
 * {@code /events/e/shop/../../internal/x}) and malformed event ids ({@link EventId}). Nothing refused here reaches
 * an upstream or gets a visitor cookie.
 */
@Component
class PathSafetyWebFilter implements WebFilter, Ordered {

    @Override
    public int getOrder() {
        return FilterOrder.PATH_SAFETY;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String rawPath = exchange.getRequest().getURI().getRawPath();
        if (rawPath == null || !isSafe(rawPath)) {
            return ProblemResponses.write(
                    exchange,
                    ProblemType.BAD_PATH,
                    "The path contains dot segments, encoded separators or parameters the gateway does not accept.");
        }
        if (!eventIdWellFormed(rawPath)) {
            return ProblemResponses.write(exchange, ProblemType.NOT_FOUND, "There is no event with such an id.");
        }
        return chain.filter(exchange);
    }

    /** Under {@code /events/}, the event id must be well formed before anything is forwarded or issued. */
    static boolean eventIdWellFormed(String rawPath) {
        if (!rawPath.startsWith("/events/")) {
            return true;
        }
        int start = "/events/".length();
        int end = rawPath.indexOf('/', start);
        return EventId.isValid(end < 0 ? rawPath.substring(start) : rawPath.substring(start, end));
    }

    static boolean isSafe(String rawPath) {
        if (!rawPath.startsWith("/")
                || rawPath.contains("//")
                || rawPath.indexOf(';') >= 0
                || rawPath.indexOf('\\') >= 0) {
            return false;
        }
        String lower = rawPath.toLowerCase(Locale.ROOT);
        if (lower.contains("%2e")
                || lower.contains("%2f")
                || lower.contains("%5c")
                || lower.contains("%00")
                || lower.contains("%25")) {
            return false;
        }
        for (String segment : rawPath.split("/", -1)) {
            if (segment.equals(".") || segment.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
