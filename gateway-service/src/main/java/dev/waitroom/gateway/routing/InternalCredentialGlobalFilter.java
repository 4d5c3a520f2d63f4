package dev.waitroom.gateway.routing;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.admission.AdmissionTokenGatewayFilterFactory;
import dev.waitroom.gateway.config.SecretsProperties;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Adds the shared internal credential to every forwarded request (any client copy was stripped before), and the shop
 * assertion the admission filter signed for this request, or else removes any {@link Headers#ASSERTION} a client sent:
 * the one place both internal headers are written.
 */
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
        String assertion = exchange.getAttribute(AdmissionTokenGatewayFilterFactory.SHOP_ASSERTION_ATTRIBUTE);
        ServerWebExchange mutated = exchange.mutate()
                .request(r -> r.headers(h -> {
                    h.set(Headers.INTERNAL, internalToken);
                    if (assertion != null) {
                        h.set(Headers.ASSERTION, assertion);
                    } else {
                        h.remove(Headers.ASSERTION);
                    }
                }))
                .build();
        return chain.filter(mutated);
    }
}
