package dev.waitroom.gateway.routing;

import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.identity.EdgeCookies;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
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
 * service can log or rely on them. Waitroom's own services still get the admission token (renew, leave); a shop origin
 * ({@link Upstreams}) gets no Waitroom cookie at all ({@link EdgeCookies#isWaitroomCookie}), and its own cookies
 * exactly as the browser sent them (the header is rewritten only when it held a Waitroom cookie). On the way out, a cookie a gateway filter
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
        return FilterOrder.EDGE_COOKIES;
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
        boolean toService = Upstreams.isWaitroomService(exchange);
        if (!toService && cookieHeaders.stream().noneMatch(EdgeCookiesGlobalFilter::mayHoldWaitroomCookie)) {
            return chain.filter(exchange);
        }
        List<String> kept = toService ? withoutEdgeCookies(cookieHeaders) : withoutWaitroomCookies(cookieHeaders);
        if (kept.equals(cookieHeaders)) {
            return chain.filter(exchange);
        }
        ServerWebExchange mutated = exchange.mutate()
                .request(r -> r.headers(h -> {
                    h.remove(HttpHeaders.COOKIE);
                    if (!kept.isEmpty()) {
                        h.put(HttpHeaders.COOKIE, kept);
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

    static List<String> withoutEdgeCookies(List<String> cookieHeaders) {
        return without(cookieHeaders, EDGE_ONLY::contains);
    }

    static List<String> withoutWaitroomCookies(List<String> cookieHeaders) {
        return without(cookieHeaders, EdgeCookies::isWaitroomCookie);
    }

    /** Every Waitroom cookie name contains {@code wr_}: a header without it needs no parsing. */
    private static boolean mayHoldWaitroomCookie(String header) {
        return header.contains("wr_");
    }

    /**
     * The {@code Cookie} headers without the {@code dropped} cookies: a header that held none is kept byte for byte, one
     * that did is rebuilt from its other pairs ({@code "; "}-separated, in order), an emptied one removed.
     */
    private static List<String> without(List<String> cookieHeaders, Predicate<String> dropped) {
        List<String> kept = new ArrayList<>(cookieHeaders.size());
        for (String header : cookieHeaders) {
            StringBuilder rebuilt = new StringBuilder();
            boolean changed = false;
            for (String pair : header.split(";")) {
                String p = pair.trim();
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                if (dropped.test(eq < 0 ? p : p.substring(0, eq).trim())) {
                    changed = true;
                    continue;
                }
                rebuilt.append(rebuilt.isEmpty() ? "" : "; ").append(p);
            }
            if (!changed) {
                kept.add(header);
            } else if (!rebuilt.isEmpty()) {
                kept.add(rebuilt.toString());
            }
        }
        return kept;
    }
}
