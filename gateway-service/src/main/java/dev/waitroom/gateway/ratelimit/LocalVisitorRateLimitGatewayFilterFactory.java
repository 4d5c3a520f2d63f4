package dev.waitroom.gateway.ratelimit;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.buckets.LocalTokenBuckets;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

/**
 * Per-visitor rate limit held in this gateway instance, for joins: a join from a new browser comes
 * with a new visitor id, so a cluster-wide per-visitor bucket would cost a Redis round trip on every
 * join of an on-sale rush (a fifth of the gateway's cost of a join in a profile) while refusing
 * nobody; this limit still stops one browser from flooding the queue-service. Each instance limits on
 * its own, so behind N instances a visitor may join up to N times the rate: a ceiling against
 * floods, not an exact quota (joins are idempotent anyway). Refusals are the same 429 problem with
 * {@code Retry-After} as {@link VisitorRateLimitGatewayFilterFactory}. Status polls are limited the
 * same way by the edge status filter, before any route is looked up.
 */
@Component
public class LocalVisitorRateLimitGatewayFilterFactory
        extends AbstractGatewayFilterFactory<VisitorRateLimitGatewayFilterFactory.Config> {

    private final MeterRegistry meters;

    private final int maxVisitors;

    LocalVisitorRateLimitGatewayFilterFactory(MeterRegistry meters, EdgeProperties edge) {
        super(VisitorRateLimitGatewayFilterFactory.Config.class);
        this.meters = meters;
        this.maxVisitors = edge.rateLimits().status().maxVisitors();
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("replenishRate", "burstCapacity", "requestedTokens");
    }

    @Override
    public GatewayFilter apply(VisitorRateLimitGatewayFilterFactory.Config config) {
        if (config.getReplenishRate() < 1
                || config.getBurstCapacity() < config.getReplenishRate()
                || config.getRequestedTokens() < 1
                || config.getRequestedTokens() > config.getBurstCapacity()) {
            throw new IllegalArgumentException(
                    "LocalVisitorRateLimit needs 1 <= replenishRate <= burstCapacity and 1 <= requestedTokens <= burstCapacity");
        }
        LocalTokenBuckets buckets = new LocalTokenBuckets(
                config.getReplenishRate(), config.getBurstCapacity(), maxVisitors, System::nanoTime);
        double cost = config.getRequestedTokens();
        long retryAfter = buckets.secondsUntil(cost);
        return (exchange, chain) -> {
            Optional<VisitorId> visitor = VisitorIdentityWebFilter.visitorOf(exchange);
            // a visitor issued by this request has a full bucket by definition: no entry is made for it
            if (visitor.isEmpty()
                    || VisitorIdentityWebFilter.issuedNow(exchange)
                    || buckets.tryTake(visitor.get().value(), cost)) {
                return chain.filter(exchange);
            }
            Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
            Counter.builder("waitroom.gateway.rate.limited")
                    .tag("route", route == null ? "unknown" : route.getId())
                    .description("Requests refused by a per-visitor rate limit")
                    .register(meters)
                    .increment();
            exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
            return ProblemResponses.write(
                    exchange,
                    ProblemType.RATE_LIMITED,
                    "Too many requests from this browser. Your place is kept; wait " + retryAfter
                            + " s before trying again.",
                    Map.of("retryAfterSeconds", retryAfter));
        };
    }
}
