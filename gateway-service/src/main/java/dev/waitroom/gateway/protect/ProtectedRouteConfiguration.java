package dev.waitroom.gateway.protect;

import dev.waitroom.contract.routes.Protection;
import dev.waitroom.contract.routes.RouteTable;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.admissioncheck.AdmissionTokenGatewayFilterFactory;
import dev.waitroom.gateway.client.ClientRateLimitGatewayFilterFactory;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import java.net.URI;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;

/**
 * The routes of any shop (docs/integration/gateway-in-front.md). {@code protected}, ahead of every configured route: a
 * request whose path an event protects ({@link ProtectedRoutes}, the most specific path wins) is rate-limited as a shop
 * request, needs that event's admission and goes to the event's origin, path and query unchanged, with the event's
 * {@code Host} when one is set. A {@code GET <prefix>/orders/<id>} under a protected prefix is an order-status read:
 * it is allowed with a token expired within the grace period, as the demo shop's order page needs. A path an event's
 * allow rule covers (docs/operating/allow-rules-and-passes.md) takes the same route, rate limit and body limit, without
 * the admission check and so without a {@code Waitroom-Admission} header. {@code
 * default-origin}, after every other route: any other path outside Waitroom's own goes to {@code
 * waitroom.gateway.default-origin} as it is, never queued; without one it is a 404 problem.
 */
@Configuration(proxyBeanMethods = false)
class ProtectedRouteConfiguration {

    /** The order of the routing step that sets the request URL from the route's: the origin's is set right after. */
    private static final int ORIGIN_URL_ORDER = FilterOrder.ORIGIN_URL;

    /** Waitroom's own paths: never passed through to the default origin (the configured routes or a 404 answer). */
    private static final Pattern WAITROOM_PATHS = Pattern.compile(
            "/(events|admin|internal|actuator|webhooks|assets|forward-auth|readyz|\\.well-known)(/.*)?");

    /** An order read under a protected prefix: {@code .../orders/<one segment>}. */
    private static final Pattern ORDER_STATUS = Pattern.compile(".*/orders/[^/]+");

    @Bean
    RouteLocator protectedRouteLocator(
            ProtectedRoutes routes,
            AdmissionTokenGatewayFilterFactory admission,
            ClientRateLimitGatewayFilterFactory clientLimits,
            AllowedRequests allowed) {
        GatewayFilter shopLimit = clientLimits.apply(new ClientRateLimitGatewayFilterFactory.Config().setLimit("shop"));
        GatewayFilter shopping = admission.apply(new AdmissionTokenGatewayFilterFactory.Config());
        GatewayFilter orderStatus =
                admission.apply(new AdmissionTokenGatewayFilterFactory.Config().setAllowExpired(true));
        GatewayFilter admitted = (exchange, chain) -> {
            RouteTable.Entry entry = ProtectedRoutes.entryOf(exchange);
            if (entry != null && entry.allowed()) {
                // an allow rule: no admission check, so no admission header either (AdmissionHeaderGlobalFilter)
                allowed.count(entry);
                return chain.filter(exchange);
            }
            return (isOrderStatus(exchange) ? orderStatus : shopping).filter(exchange, chain);
        };
        GatewayFilter toOrigin = new OrderedGatewayFilter(
                (exchange, chain) -> {
                    RouteTable.Entry entry = ProtectedRoutes.entryOf(exchange);
                    return chain.filter(entry == null ? exchange : toOrigin(exchange, entry.origin(), entry.host()));
                },
                ORIGIN_URL_ORDER);
        Route route = Route.async()
                .id("protected")
                .order(-1)
                // never reached as such: the origin of the matched event replaces it
                .uri(URI.create("http://protected.invalid"))
                .predicate(exchange -> routes.match(exchange) != null)
                // ordered as a configured route's filters are (1, 2, ...): ahead of the global filters that forward
                .filters(List.of(
                        new OrderedGatewayFilter(shopLimit, 1), new OrderedGatewayFilter(admitted, 2), toOrigin))
                .build();
        return () -> Flux.just(route);
    }

    @Bean
    RouteLocator defaultOriginRouteLocator(@Value("${waitroom.gateway.default-origin:}") String defaultOrigin) {
        if (defaultOrigin == null || defaultOrigin.isBlank()) {
            return Flux::empty;
        }
        URI origin = Protection.origin(defaultOrigin);
        Route route = Route.async()
                .id("default-origin")
                .order(Integer.MAX_VALUE)
                .uri(origin)
                .predicate(exchange -> !WAITROOM_PATHS
                        .matcher(exchange.getRequest().getURI().getRawPath())
                        .matches())
                .filters(List.of())
                .build();
        return () -> Flux.just(route);
    }

    private static boolean isOrderStatus(ServerWebExchange exchange) {
        RouteTable.Entry entry = ProtectedRoutes.entryOf(exchange);
        return entry != null
                && entry.path().prefix()
                && exchange.getRequest().getMethod() == HttpMethod.GET
                && ORDER_STATUS
                        .matcher(exchange.getRequest().getURI().getRawPath())
                        .matches();
    }

    /** The request to the origin: its scheme and authority, the request's raw path and query. */
    private static ServerWebExchange toOrigin(ServerWebExchange exchange, URI origin, String host) {
        URI request = exchange.getRequest().getURI();
        String query = request.getRawQuery();
        URI url = URI.create(origin + request.getRawPath() + (query == null ? "" : "?" + query));
        exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR, url);
        if (host == null) {
            exchange.getAttributes().put(ServerWebExchangeUtils.PRESERVE_HOST_HEADER_ATTRIBUTE, false);
            return exchange;
        }
        exchange.getAttributes().put(ServerWebExchangeUtils.PRESERVE_HOST_HEADER_ATTRIBUTE, true);
        return exchange.mutate()
                .request(r -> r.headers(h -> h.set(HttpHeaders.HOST, host)))
                .build();
    }
}
