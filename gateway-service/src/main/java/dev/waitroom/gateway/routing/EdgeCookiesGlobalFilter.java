package dev.waitroom.gateway.routing;

import dev.waitroom.gateway.identity.EdgeCookies;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The visitor cookie and the queue ticket are read by the gateway only (the services get the verified visitor id in a
 * header): they are removed, under any of their names, from the {@code Cookie} header of forwarded requests, so no
 * service can log or rely on them. Other cookies (the admission token) pass. On the way out, a cookie a gateway filter
 * set under its canonical name (the queue ticket) gets its name on the wire ({@link EdgeCookies}).
 */
@Component
class EdgeCookiesGlobalFilter implements GlobalFilter, Ordered {

    static final Set<String> EDGE_ONLY = Set.of(
            EdgeCookies.VISITOR,
            EdgeCookies.TICKET,
            EdgeCookies.HOST_PREFIX + EdgeCookies.VISITOR,
            EdgeCookies.SECURE_PREFIX + EdgeCookies.TICKET);

    private final EdgeCookies cookies;

    EdgeCookiesGlobalFilter(EdgeCookies cookies) {
        this.cookies = cookies;
    }

    @Override
    public int getOrder() {
        // after every filter that sets a cookie, so this one's response hook runs after theirs
        return Ordered.LOWEST_PRECEDENCE - 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (cookies.secure()) {
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                onTheWire(response.getCookies(), EdgeCookies.TICKET);
                return Mono.empty();
            });
        }
        List<String> cookieHeaders = exchange.getRequest().getHeaders().get(HttpHeaders.COOKIE);
        if (cookieHeaders == null || cookieHeaders.isEmpty()) {
            return chain.filter(exchange);
        }
        String kept = withoutEdgeCookies(cookieHeaders);
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

    /** Renames the response cookies set under {@code canonical} to their name on the wire, attributes kept. */
    private void onTheWire(MultiValueMap<String, ResponseCookie> responseCookies, String canonical) {
        List<ResponseCookie> set = responseCookies.remove(canonical);
        if (set == null) {
            return;
        }
        String wire = cookies.onTheWire(canonical);
        for (ResponseCookie c : set) {
            responseCookies.add(
                    wire,
                    ResponseCookie.from(wire, c.getValue())
                            .path(c.getPath())
                            .domain(c.getDomain())
                            .maxAge(c.getMaxAge())
                            .httpOnly(c.isHttpOnly())
                            .sameSite(c.getSameSite())
                            .secure(true)
                            .build());
        }
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
