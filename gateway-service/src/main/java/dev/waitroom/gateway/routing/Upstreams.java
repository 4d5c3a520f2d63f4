package dev.waitroom.gateway.routing;

import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.web.server.ServerWebExchange;

/**
 * Who receives a forwarded request (docs/reference/contracts.md#what-an-origin-receives). A route whose metadata says {@value
 * #SERVICE_METADATA}{@code : true} goes to one of Waitroom's own services (queue, coordinator, booking's ops routes):
 * it gets the internal credential, the verified visitor header and the admission cookie. Every other route goes to a
 * shop origin, Waitroom's bundled booking-service on its shop routes included: it gets none of that, only the signed
 * {@code Waitroom-Admission} header and the shop's own headers and cookies. Opt-in, so a route someone adds without
 * thinking about it leaks nothing.
 */
public final class Upstreams {

    /** The route metadata key that marks a route to Waitroom's own service. */
    public static final String SERVICE_METADATA = "waitroom-service";

    private Upstreams() {}

    /** The exchange's route goes to one of Waitroom's own services. */
    public static boolean isWaitroomService(ServerWebExchange exchange) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route == null) {
            return false;
        }
        Object marked = route.getMetadata().get(SERVICE_METADATA);
        return Boolean.TRUE.equals(marked) || "true".equals(marked);
    }
}
