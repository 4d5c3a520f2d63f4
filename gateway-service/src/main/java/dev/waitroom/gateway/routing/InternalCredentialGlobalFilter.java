package dev.waitroom.gateway.routing;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.config.SecretsProperties;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The one place the gateway's own credential is written on forwarded requests ({@link Upstreams}): a request to one of
 * Waitroom's own services gets it (any client copy was stripped before); a request to a shop origin loses every
 * {@code X-Waitroom-*} header, the gateway's own (visitor id) and any a client sent, so an origin never holds a
 * credential Waitroom's services accept and learns about the buyer only from the signed {@code Waitroom-Admission}
 * header.
 */
@Component
class InternalCredentialGlobalFilter implements GlobalFilter, Ordered {

    /** The prefix of the headers only Waitroom's services read (docs/reference/contracts.md#headers). */
    static final String WAITROOM_PREFIX = "X-Waitroom-";

    private final String serviceCredential;

    InternalCredentialGlobalFilter(SecretsProperties secrets) {
        this.serviceCredential = secrets.serviceCredential();
    }

    @Override
    public int getOrder() {
        return FilterOrder.INTERNAL_CREDENTIAL;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (Upstreams.isWaitroomService(exchange)) {
            return chain.filter(exchange.mutate()
                    .request(r -> r.headers(h -> h.set(Headers.INTERNAL, serviceCredential)))
                    .build());
        }
        List<String> waitroom = exchange.getRequest().getHeaders().headerNames().stream()
                .filter(InternalCredentialGlobalFilter::isWaitroomHeader)
                .toList();
        if (waitroom.isEmpty()) {
            return chain.filter(exchange);
        }
        return chain.filter(exchange.mutate()
                .request(r -> r.headers(h -> waitroom.forEach(h::remove)))
                .build());
    }

    static boolean isWaitroomHeader(String name) {
        return name.regionMatches(true, 0, WAITROOM_PREFIX, 0, WAITROOM_PREFIX.length());
    }
}
