package dev.waitroom.gateway.redis;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.stereotype.Component;

/**
 * {@code RedisRequired} on a route: while the gateway's Redis is unreachable ({@link RedisReachability}) the route
 * fails closed with a 503 {@code queue-store-unavailable} problem and {@code Retry-After}, answered here without
 * forwarding (joins: docs/design/abuse/client-limits.md, "When Redis is down"). Costs no network call per request.
 */
@Component
public class RedisRequiredGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final RedisReachability reachability;

    RedisRequiredGatewayFilterFactory(RedisReachability reachability) {
        super(Object.class);
        this.reachability = reachability;
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> {
            if (reachability.reachable()) {
                return chain.filter(exchange);
            }
            Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
            return reachability.refuse(exchange, route == null ? "unknown" : route.getId());
        };
    }
}
