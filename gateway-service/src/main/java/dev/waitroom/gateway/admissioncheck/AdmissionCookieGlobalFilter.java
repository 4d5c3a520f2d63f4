package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.identity.EdgeCookies;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
 * The admission cookie on the wire (docs/reference/contracts.md, {@link EdgeCookies}). The coordinator sets {@code wr_at} for the
 * event's own path ({@code Path=/events/{e}}) and without {@code Secure} (it cannot know how the browser reached the
 * edge). The gateway hands it to the browser as the event's own cookie {@code wr_at_<e>} with {@code Path=/}, so it
 * reaches the event's protected paths wherever they are, while a buyer admitted to two events still holds one token
 * for each; over HTTPS as {@code __Host-wr_at_<e>} with {@code Secure} and no {@code Domain}. On the way in the
 * request's event (the protected path it matched, or the route's {@code {eventId}}) decides: that event's cookie is
 * presented as {@code wr_at} to the admission check and the services, every other admission cookie (a bare {@code
 * wr_at}, other events' tokens, over HTTPS an unprefixed one a plain-http answer could have planted) is dropped. Runs
 * before every route filter, after the route (and so the event) is known.
 */
@Component
class AdmissionCookieGlobalFilter implements GlobalFilter, Ordered {

    private static final String CANONICAL = EdgeCookies.ADMISSION;

    private static final Pattern EVENT_PATH = Pattern.compile("(?i)path=/events/([A-Za-z0-9_-]{1,64})/?");

    private final EdgeCookies cookies;

    AdmissionCookieGlobalFilter(EdgeCookies cookies) {
        this.cookies = cookies;
    }

    @Override
    public int getOrder() {
        return FilterOrder.ADMISSION_COOKIE;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            List<String> set = response.getHeaders().get(HttpHeaders.SET_COOKIE);
            if (set != null && set.stream().anyMatch(c -> c.startsWith(CANONICAL + "="))) {
                response.getHeaders()
                        .put(
                                HttpHeaders.SET_COOKIE,
                                set.stream().map(this::onTheWire).toList());
            }
            return Mono.empty();
        });
        List<String> cookieHeaders = exchange.getRequest().getHeaders().get(HttpHeaders.COOKIE);
        if (cookieHeaders == null || cookieHeaders.stream().noneMatch(h -> h.contains(CANONICAL))) {
            return chain.filter(exchange);
        }
        Optional<EventId> event = AdmissionTokenGatewayFilterFactory.eventOf(exchange);
        String wireName = event.map(cookies::admissionName).orElse(null);
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
        MultiValueMap<String, HttpCookie> parsed =
                presented(exchange.getRequest().getCookies(), wireName);
        ServerHttpRequest request = new ServerHttpRequestDecorator(withHeader) {
            @Override
            public MultiValueMap<String, HttpCookie> getCookies() {
                return parsed;
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
            } else if (!EdgeCookies.isAdmissionCookie(name)) {
                out.addAll(name, values);
            }
        });
        return CollectionUtils.unmodifiableMultiValueMap(out);
    }

    /** The upstream's {@code wr_at} as the browser must get it: its event's name, {@code Path=/}, Secure over HTTPS. */
    String onTheWire(String setCookie) {
        if (!setCookie.startsWith(CANONICAL + "=")) {
            return setCookie;
        }
        Matcher path = EVENT_PATH.matcher(setCookie);
        if (!path.find() || !EventId.isValid(path.group(1))) {
            // not an event's token: never sent on as a bare wr_at
            return setCookie.substring(0, setCookie.indexOf('=')) + "=; Path=/; Max-Age=0";
        }
        return onTheWire(setCookie, cookies.admissionName(EventId.of(path.group(1))), cookies.secure());
    }

    /**
     * {@code setCookie} under {@code wireName} with {@code Path=/}, no {@code Domain} (host-only, so no sibling
     * subdomain receives it) and {@code Secure} when {@code secure}; its value and other attributes kept.
     */
    static String onTheWire(String setCookie, String wireName, boolean secure) {
        String[] parts = setCookie.split(";");
        StringBuilder out = new StringBuilder(wireName).append(parts[0].substring(CANONICAL.length()));
        out.append("; Path=/");
        for (int i = 1; i < parts.length; i++) {
            String a = parts[i].trim();
            if (a.isEmpty()
                    || a.equalsIgnoreCase("secure")
                    || a.regionMatches(true, 0, "domain=", 0, 7)
                    || a.regionMatches(true, 0, "path=", 0, 5)) {
                continue;
            }
            out.append("; ").append(a);
        }
        return secure ? out.append("; Secure").toString() : out.toString();
    }

    /**
     * The {@code Cookie} headers with the event's {@code wireName} cookie presented as {@code wr_at} and every other
     * admission cookie dropped; other cookies unchanged, in order. {@code wireName} null: the request has no event, no
     * admission cookie is presented.
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
                boolean ours = eq >= 0 && name.equals(wireName);
                if (!ours && EdgeCookies.isAdmissionCookie(name)) {
                    continue;
                }
                if (out.length() > 0) {
                    out.append("; ");
                }
                out.append(ours ? CANONICAL + p.substring(eq) : p);
            }
        }
        return out.toString();
    }
}
