package dev.waitroom.gateway.routing;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The visitor cookie and the queue ticket are read by the gateway only (the services get the
 * verified visitor id in a header): they are removed from the {@code Cookie} header of forwarded
 * requests, so no service can log or rely on them. Other cookies (the admission token) pass.
 */
@Component
class EdgeCookiesGlobalFilter implements GlobalFilter, Ordered {

    static final Set<String> EDGE_ONLY = Set.of("wr_vid", "wr_qt");

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        List<String> cookies = exchange.getRequest().getHeaders().get(HttpHeaders.COOKIE);
        if (cookies == null || cookies.isEmpty()) {
            return chain.filter(exchange);
        }
        String kept = withoutEdgeCookies(cookies);
        ServerWebExchange mutated = exchange.mutate()
                .request(r -> r.headers(h -> {
                    h.remove(HttpHeaders.COOKIE);
                    if (!kept.isEmpty()) {
                        h.set(HttpHeaders.COOKIE, kept);
                    }
                }))
                .build();
        return chain.filter(mutated);
    }

    static String withoutEdgeCookies(List<String> cookieHeaders) {
        return cookieHeaders.stream()
                .flatMap(header -> List.of(header.split(";")).stream())
                .map(String::trim)
                .filter(pair -> !pair.isEmpty())
                .filter(pair -> {
                    int eq = pair.indexOf('=');
                    String name = eq < 0 ? pair : pair.substring(0, eq).trim();
                    return !EDGE_ONLY.contains(name);
                })
                .collect(Collectors.joining("; "));
    }
}
