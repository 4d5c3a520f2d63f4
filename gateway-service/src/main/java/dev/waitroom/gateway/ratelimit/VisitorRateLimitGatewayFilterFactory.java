package dev.waitroom.gateway.ratelimit;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.redis.RedisReachability;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.beans.BeansException;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.ratelimit.RedisRateLimiter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Per-visitor rate limit on a route, keyed by the verified visitor id (never the IP address),
 * using Spring Cloud Gateway's {@link RedisRateLimiter} (token bucket in one atomic Lua script,
 * hash-tagged keys). A refusal is a 429 problem with {@code Retry-After}, not the limiter's empty
 * body. Unlike the stock filter it fails closed: while Redis cannot be reached ({@link RedisReachability}) the route
 * answers 503 {@code admission-unavailable} without asking Redis, so requests do not each wait for it
 * (docs/design/abuse/client-limits.md, "When Redis is down"; it guards claims, which need Redis anyway).
 */
@Component
public class VisitorRateLimitGatewayFilterFactory
        extends AbstractGatewayFilterFactory<VisitorRateLimitGatewayFilterFactory.Config>
        implements ApplicationContextAware {

    private final MeterRegistry meters;

    private final Duration redisTimeout;

    private final RedisReachability reachability;

    private ApplicationContext context;

    VisitorRateLimitGatewayFilterFactory(MeterRegistry meters, EdgeProperties edge, RedisReachability reachability) {
        super(Config.class);
        this.meters = meters;
        this.redisTimeout = edge.redisTimeout();
        this.reachability = reachability;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) throws BeansException {
        this.context = context;
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("replenishRate", "burstCapacity", "requestedTokens");
    }

    @Override
    public GatewayFilter apply(Config config) {
        if (config.getReplenishRate() < 1
                || config.getBurstCapacity() < config.getReplenishRate()
                || config.getRequestedTokens() < 1
                || config.getRequestedTokens() > config.getBurstCapacity()) {
            throw new IllegalArgumentException(
                    "VisitorRateLimit needs 1 <= replenishRate <= burstCapacity and 1 <= requestedTokens <= burstCapacity");
        }
        RedisRateLimiter limiter =
                new RedisRateLimiter(config.getReplenishRate(), config.getBurstCapacity(), config.getRequestedTokens());
        limiter.setIncludeHeaders(false);
        limiter.setApplicationContext(context);
        long retryAfter =
                Math.max(1, (long) Math.ceil((double) config.getRequestedTokens() / config.getReplenishRate()));
        return (exchange, chain) -> {
            Optional<VisitorId> visitor = VisitorIdentityWebFilter.visitorOf(exchange);
            if (visitor.isEmpty()) {
                return chain.filter(exchange);
            }
            Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
            String routeId = route == null ? "unknown" : route.getId();
            if (!reachability.reachable()) {
                return reachability.refuseAdmission(exchange, routeId);
            }
            return limiter.isAllowed(routeId, visitor.get().value())
                    .timeout(redisTimeout)
                    .map(Optional::of)
                    .onErrorResume(error -> {
                        // fail closed, and do not make the next requests wait for an unreachable Redis
                        reachability.failed();
                        return Mono.just(Optional.empty());
                    })
                    .flatMap(answer -> {
                        if (answer.isEmpty()) {
                            return reachability.refuseAdmission(exchange, routeId);
                        }
                        if (answer.get().isAllowed()) {
                            return chain.filter(exchange);
                        }
                        Counter.builder("waitroom.gateway.rate.limited")
                                .tag("route", routeId)
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
                    });
        };
    }

    public static class Config {

        /** Tokens added per second. */
        private int replenishRate = 1;

        /** Bucket size: the burst a visitor may make at once. */
        private long burstCapacity = 1;

        /** Tokens one request costs; above 1 it expresses rates below one per second. */
        private int requestedTokens = 1;

        public int getReplenishRate() {
            return replenishRate;
        }

        public Config setReplenishRate(int replenishRate) {
            this.replenishRate = replenishRate;
            return this;
        }

        public long getBurstCapacity() {
            return burstCapacity;
        }

        public Config setBurstCapacity(long burstCapacity) {
            this.burstCapacity = burstCapacity;
            return this;
        }

        public int getRequestedTokens() {
            return requestedTokens;
        }

        public Config setRequestedTokens(int requestedTokens) {
            this.requestedTokens = requestedTokens;
            return this;
        }
    }
}
