package dev.waitroom.gateway.client;

import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.redis.RedisReachability;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * {@code ClientRateLimit=<limit>} on a route: the per-client-address limit of that name ({@link ClientLimits}):
 * {@code joins}, {@code sessions}, {@code shop} (held in this instance) or {@code claims} (counted in Redis; fails
 * closed with a 503 problem when Redis cannot be asked).
 */
@Component
public class ClientRateLimitGatewayFilterFactory
        extends AbstractGatewayFilterFactory<ClientRateLimitGatewayFilterFactory.Config> {

    private final ClientLimits limits;

    private final Duration redisTimeout;

    private final RedisReachability reachability;

    ClientRateLimitGatewayFilterFactory(ClientLimits limits, EdgeProperties edge, RedisReachability reachability) {
        super(Config.class);
        this.limits = limits;
        this.reachability = reachability;
        this.redisTimeout = edge.redisTimeout();
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("limit");
    }

    @Override
    public GatewayFilter apply(Config config) {
        String name = config.getLimit() == null ? "" : config.getLimit().trim().toLowerCase(Locale.ROOT);
        if (name.equals("claims")) {
            return (exchange, chain) -> {
                if (!reachability.reachable()) {
                    return reachability.refuseAdmission(exchange, "admission-claim");
                }
                return limits.tryTakeClaim(exchange, redisTimeout)
                        .map(Optional::of)
                        .onErrorResume(error -> Mono.just(Optional.empty()))
                        .flatMap(allowed -> {
                            if (allowed.isEmpty()) {
                                return reachability.refuseAdmission(exchange, "admission-claim");
                            }
                            return allowed.get() ? chain.filter(exchange) : limits.refuseClaim(exchange);
                        });
            };
        }
        ClientLimits.Local limit = switch (name) {
            case "joins" -> ClientLimits.Local.JOINS;
            case "sessions" -> ClientLimits.Local.SESSIONS;
            case "shop" -> ClientLimits.Local.SHOP;
            case "signals" -> ClientLimits.Local.SIGNALS;
            default ->
                throw new IllegalArgumentException(
                        "ClientRateLimit needs one of joins, sessions, shop, signals, claims; got '" + config.getLimit()
                                + "'");
        };
        return (exchange, chain) ->
                limits.tryTake(limit, exchange) ? chain.filter(exchange) : limits.refuse(exchange, limit);
    }

    public static class Config {

        private String limit;

        public String getLimit() {
            return limit;
        }

        public Config setLimit(String limit) {
            this.limit = limit;
            return this;
        }
    }
}
