package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import dev.waitroom.tokens.AdmissionHeader;
import java.util.Locale;
import java.util.regex.Pattern;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * {@code /forward-auth} (docs/integration/forward-auth.md): the admission check of a request an origin's own proxy
 * received, for nginx {@code auth_request}, Traefik {@code forwardAuth} and Envoy {@code ext_authz}. The original method
 * and URI come from {@code X-Original-Method}/{@code X-Original-URI} (nginx), {@code X-Forwarded-Method}/{@code
 * X-Forwarded-Uri} (Traefik), or the path after {@code /forward-auth} with the request's own method (Envoy's
 * {@code path_prefix}). The request is rewritten to that method and path before any route is looked up, so the protected
 * route's own filters (rate limit, admission check) run unchanged; {@link Answer} then answers 200 with the
 * {@code Waitroom-Admission} header to copy instead of forwarding. A refusal is the admission check's own (401
 * problem), with the event's waiting page and the original path as its return target in {@code Waitroom-Waiting-Room}
 * for the proxy's own 303. Only paths an event protects (the route table, or the demo shop's {@code
 * /events/{eventId}/shop/...}) are accepted: anything else is 400 {@code bad-path}, never forwarded.
 */
@Component
class ForwardAuthWebFilter implements WebFilter, Ordered {

    static final String PATH = "/forward-auth";
    static final String ATTRIBUTE = ForwardAuthWebFilter.class.getName();

    /** The demo shop's paths, protected by the configured shop routes too. */
    private static final Pattern SHOP = Pattern.compile("/events/[^/]+/shop(/.*)?");

    private final ProtectedRoutes routes;

    ForwardAuthWebFilter(ProtectedRoutes routes) {
        this.routes = routes;
    }

    private static final Pattern METHOD = Pattern.compile("[A-Z]{1,16}");

    @Override
    public int getOrder() {
        // after the correlation id, before the path-safety check, which then sees the original path
        return FilterOrder.FORWARD_AUTH;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String path = exchange.getRequest().getURI().getRawPath();
        if (!path.equals(PATH) && !path.startsWith(PATH + "/")) {
            return chain.filter(exchange);
        }
        String uri = first(exchange, "X-Original-URI", "X-Forwarded-Uri");
        String method = first(exchange, "X-Original-Method", "X-Forwarded-Method");
        String original = uri != null ? uri : path.substring(PATH.length());
        int query = original.indexOf('?');
        String originalPath = query < 0 ? original : original.substring(0, query);
        String originalMethod = method != null
                ? method.toUpperCase(Locale.ROOT)
                : exchange.getRequest().getMethod().name();
        if ((routes.table().match(originalPath) == null
                        && !SHOP.matcher(originalPath).matches())
                || !METHOD.matcher(originalMethod).matches()) {
            return ProblemResponses.write(
                    exchange, ProblemType.BAD_PATH, "forward-auth answers only for a path an event protects");
        }
        exchange.getAttributes().put(ATTRIBUTE, Boolean.TRUE);
        return chain.filter(exchange.mutate()
                .request(r -> r.method(HttpMethod.valueOf(originalMethod)).uri(originalUri(exchange, original)))
                .build());
    }

    /** The gateway's own URI with the original path and query, which the waiting page's return target is made of. */
    private static java.net.URI originalUri(ServerWebExchange exchange, String original) {
        java.net.URI own = exchange.getRequest().getURI();
        try {
            return java.net.URI.create(own.getScheme() + "://" + own.getRawAuthority() + original);
        } catch (IllegalArgumentException ex) {
            return org.springframework.web.util.UriComponentsBuilder.fromUri(own)
                    .replacePath(original.contains("?") ? original.substring(0, original.indexOf('?')) : original)
                    .replaceQuery(null)
                    .build(true)
                    .toUri();
        }
    }

    private static String first(ServerWebExchange exchange, String... names) {
        for (String name : names) {
            String value = exchange.getRequest().getHeaders().getFirst(name);
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }

    /** Answers a forward-auth request that passed its route's filters: 200, the header to copy, nothing forwarded. */
    @Component
    static class Answer implements GlobalFilter, Ordered {

        @Override
        public int getOrder() {
            // after the admission-header and internal-credential filters, before the routing filter forwards
            return FilterOrder.FORWARD_AUTH_ANSWER;
        }

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
            if (exchange.getAttribute(ATTRIBUTE) == null) {
                return chain.filter(exchange);
            }
            String admission = exchange.getRequest().getHeaders().getFirst(AdmissionHeader.NAME);
            exchange.getResponse().setStatusCode(HttpStatus.OK);
            exchange.getResponse().getHeaders().setCacheControl("no-store");
            if (admission != null) {
                exchange.getResponse().getHeaders().set(AdmissionHeader.NAME, admission);
            }
            return exchange.getResponse().setComplete();
        }
    }
}
