package dev.waitroom.gateway.admission;

import dev.waitroom.gateway.config.EdgeProperties;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The coordinator sets the {@code wr_at} admission cookie without {@code Secure} (it cannot know
 * how the browser reached the edge); outside local http the gateway adds it (docs/CONTRACTS.md).
 */
@Component
class AdmissionCookieGlobalFilter implements GlobalFilter, Ordered {

    private final boolean secure;

    AdmissionCookieGlobalFilter(EdgeProperties edge) {
        this.secure = edge.secureCookies();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (secure) {
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                List<String> cookies = response.getHeaders().get(HttpHeaders.SET_COOKIE);
                if (cookies != null && !cookies.isEmpty()) {
                    List<String> secured = cookies.stream()
                            .map(AdmissionCookieGlobalFilter::secured)
                            .toList();
                    response.getHeaders().put(HttpHeaders.SET_COOKIE, secured);
                }
                return Mono.empty();
            });
        }
        return chain.filter(exchange);
    }

    static String secured(String setCookie) {
        if (!setCookie.startsWith(AdmissionTokenGatewayFilterFactory.COOKIE + "=")) {
            return setCookie;
        }
        for (String attribute : setCookie.split(";")) {
            if (attribute.trim().equalsIgnoreCase("secure")) {
                return setCookie;
            }
        }
        return setCookie + "; Secure";
    }
}
