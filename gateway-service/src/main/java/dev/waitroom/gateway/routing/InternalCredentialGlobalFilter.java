package dev.waitroom.gateway.routing;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.config.SecretsProperties;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/** Adds the shared internal credential to every forwarded request (any client copy was stripped before). */
@Component
class InternalCredentialGlobalFilter implements GlobalFilter, Ordered {

    private final String internalToken;

    InternalCredentialGlobalFilter(SecretsProperties secrets) {
        this.internalToken = secrets.internalToken();
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        ServerWebExchange mutated = exchange.mutate()
                .request(r -> r.headers(h -> h.set(Headers.INTERNAL, internalToken)))
                .build();
        return chain.filter(mutated);
    }
}
