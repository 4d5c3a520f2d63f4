package dev.waitroom.gateway.admission;

import dev.waitroom.gateway.identity.EdgeCookies;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.util.CollectionUtils;
import org.springframework.util.LinkedMultiValueMap;
import org.springframework.util.MultiValueMap;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The admission cookie on the wire (docs/CONTRACTS.md, {@link EdgeCookies}). The coordinator sets {@code wr_at} for the
 * event's own path ({@code Path=/events/{e}}: one token per event, so a buyer admitted to two events shops both) and
 * without {@code Secure} (it cannot know how the browser reached the edge). Served over HTTPS the gateway hands it to
 * the browser as {@code __Secure-wr_at} with {@code Secure}, its path kept and no {@code Domain}, and on the way in
 * presents the browser's {@code __Secure-wr_at} as {@code wr_at} to the admission check and the services, dropping any
 * bare {@code wr_at} (one a plain-http answer could have planted). Runs before every route filter.
 */
@Component
class AdmissionCookieGlobalFilter implements GlobalFilter, Ordered {

    private static final String CANONICAL = EdgeCookies.ADMISSION;

    private final boolean secure;

    private final String wireName;

    AdmissionCookieGlobalFilter(EdgeCookies cookies) {
        this.secure = cookies.secure();
        this.wireName = cookies.admissionName();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 100;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (!secure) {
            return chain.filter(exchange);
        }
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            List<String> cookies = response.getHeaders().get(HttpHeaders.SET_COOKIE);
            if (cookies != null && !cookies.isEmpty()) {
                List<String> secured = cookies.stream().map(this::secured).toList();
                response.getHeaders().put(HttpHeaders.SET_COOKIE, secured);
            }
            return Mono.empty();
        });
        List<String> cookieHeaders = exchange.getRequest().getHeaders().get(HttpHeaders.COOKIE);
        if (cookieHeaders == null || cookieHeaders.stream().noneMatch(h -> h.contains(CANONICAL))) {
            return chain.filter(exchange);
        }
        String presented = presented(cookieHeaders, wireName);
        ServerHttpRequest withHeader = exchange.getRequest()
                .mutate()
                .headers(h -> {
                    h.remove(HttpHeaders.COOKIE);
                    if (!presented.isEmpty()) {
                        h.set(HttpHeaders.COOKIE, presented);
                    }
                })
                .build();
        // a mutated request keeps the original's parsed cookies: present the same view there
        MultiValueMap<String, HttpCookie> cookies =
                presented(exchange.getRequest().getCookies(), wireName);
        ServerHttpRequest request = new ServerHttpRequestDecorator(withHeader) {
            @Override
            public MultiValueMap<String, HttpCookie> getCookies() {
                return cookies;
            }
        };
        return chain.filter(exchange.mutate().request(request).build());
    }

    /** The parsed request cookies as {@link #presented(List, String)} presents the header. */
    static MultiValueMap<String, HttpCookie> presented(MultiValueMap<String, HttpCookie> cookies, String wireName) {
        MultiValueMap<String, HttpCookie> out = new LinkedMultiValueMap<>();
        cookies.forEach((name, values) -> {
            if (name.equals(wireName)) {
                values.forEach(c -> out.add(CANONICAL, new HttpCookie(CANONICAL, c.getValue())));
            } else if (!name.equals(CANONICAL)) {
                out.addAll(name, values);
            }
        });
        return CollectionUtils.unmodifiableMultiValueMap(out);
    }

    /** The upstream's {@code wr_at} as the browser must get it: renamed, {@code Secure}, its path kept. */
    String secured(String setCookie) {
        return secured(setCookie, wireName);
    }

    /**
     * {@code setCookie} under {@code wireName} with {@code Secure} and no {@code Domain} (host-only, so no sibling
     * subdomain receives it); its value, path and other attributes kept. Other cookies unchanged.
     */
    static String secured(String setCookie, String wireName) {
        if (!setCookie.startsWith(CANONICAL + "=")) {
            return setCookie;
        }
        String[] parts = setCookie.split(";");
        StringBuilder out = new StringBuilder(wireName).append(parts[0].substring(CANONICAL.length()));
        for (int i = 1; i < parts.length; i++) {
            String a = parts[i].trim();
            if (a.isEmpty() || a.equalsIgnoreCase("secure") || a.regionMatches(true, 0, "domain=", 0, 7)) {
                continue;
            }
            out.append("; ").append(a);
        }
        return out.append("; Secure").toString();
    }

    /**
     * The {@code Cookie} headers with the browser's {@code __Secure-wr_at} presented as {@code wr_at} and any bare
     * {@code wr_at} dropped; other cookies unchanged, in order.
     */
    static String presented(List<String> cookieHeaders, String wireName) {
        StringBuilder out = new StringBuilder();
        for (String header : cookieHeaders) {
            for (String pair : header.split(";")) {
                String p = pair.trim();
                if (p.isEmpty()) {
                    continue;
                }
                int eq = p.indexOf('=');
                String name = eq < 0 ? p : p.substring(0, eq).trim();
                if (name.equals(CANONICAL) || (eq < 0 && name.equals(wireName))) {
                    continue;
                }
                if (out.length() > 0) {
                    out.append("; ");
                }
                out.append(name.equals(wireName) ? CANONICAL + p.substring(eq) : p);
            }
        }
        return out.toString();
    }
}
