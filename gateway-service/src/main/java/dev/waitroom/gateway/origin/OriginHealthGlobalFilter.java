package dev.waitroom.gateway.origin;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.FilterOrder;
import java.net.URI;
import java.util.Map;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * Times every request forwarded to a shop origin, per (event, origin), for the rate controller
 * ({@link OriginWindows}, reported by {@link EdgeHealthReporter}). It runs just before the routing filter, so only
 * requests every route filter let through are timed, from the forwarding to the origin's response headers (the
 * routing filter completes there; the body streams after). A request of a client that went away first is not counted:
 * it says nothing about the origin. Waitroom's own services are not shop origins: a request is measured only when it
 * belongs to an event's protected paths, the exchange attribute {@link #PROTECTED_EVENT} (set by the routing of
 * protected paths), or, on today's {@code /events/{eventId}/shop/**} routes, that path's event.
 */
@Component
class OriginHealthGlobalFilter implements GlobalFilter, org.springframework.core.Ordered {

    /** The event whose protected paths a request matched (a {@link EventId}), set by the protected-path routing. */
    static final String PROTECTED_EVENT = "waitroom.protected-event";

    private static final String EVENTS = "/events/";

    private static final String SHOP = "/shop/";

    private final OriginWindows windows;

    OriginHealthGlobalFilter(OriginWindows windows) {
        this.windows = windows;
    }

    @Override
    public int getOrder() {
        return FilterOrder.ORIGIN_HEALTH;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        URI url = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_REQUEST_URL_ATTR);
        String eventId = url == null || !isHttp(url.getScheme()) ? null : eventOf(exchange);
        if (eventId == null) {
            return chain.filter(exchange);
        }
        long start = System.nanoTime();
        return chain.filter(exchange)
                .doOnSuccess(done -> {
                    HttpStatusCode status = exchange.getResponse().getStatusCode();
                    this.windows.record(
                            eventId,
                            url,
                            Outcome.ofStatus(status == null ? 200 : status.value()),
                            System.nanoTime() - start);
                })
                .doOnError(
                        error -> this.windows.record(eventId, url, Outcome.ofError(error), System.nanoTime() - start));
    }

    private static boolean isHttp(String scheme) {
        return "http".equals(scheme) || "https".equals(scheme);
    }

    /** The event of a protected path, or null for anything else (Waitroom's own routes). */
    static String eventOf(ServerWebExchange exchange) {
        Object event = exchange.getAttribute(PROTECTED_EVENT);
        if (event instanceof EventId id) {
            return id.value();
        }
        Map<String, String> variables = ServerWebExchangeUtils.getUriTemplateVariables(exchange);
        String id = variables.get("eventId");
        if (id == null) {
            return null;
        }
        String path = exchange.getRequest().getPath().value();
        boolean shop = path.startsWith(EVENTS)
                && path.startsWith(id, EVENTS.length())
                && path.startsWith(SHOP, EVENTS.length() + id.length());
        return shop && EventId.isValid(id) ? id : null;
    }
}
