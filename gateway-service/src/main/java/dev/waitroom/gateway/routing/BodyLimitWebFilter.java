package dev.waitroom.gateway.routing;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.problem.ProblemResponses;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Refuses a body larger than any public call needs (the WebFlux counterpart of the web kit's {@code BodyLimitFilter}),
 * before anything is forwarded or a visitor cookie is issued. Runs right after {@link PathSafetyWebFilter}.
 */
@Component
class BodyLimitWebFilter implements WebFilter, Ordered {

    static final long MAX_BODY_BYTES = 64 * 1024;

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 11;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        long length = exchange.getRequest().getHeaders().getContentLength();
        if (length > MAX_BODY_BYTES) {
            return ProblemResponses.write(
                    exchange,
                    ProblemType.BODY_TOO_LARGE,
                    "The request body is larger than " + MAX_BODY_BYTES + " bytes.");
        }
        return chain.filter(exchange);
    }
}
