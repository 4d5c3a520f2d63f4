package dev.waitroom.gateway.ratelimit;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.beans.BeansException;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.filter.ratelimit.RateLimiter;
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
 * body. Like the stock filter it lets requests through when Redis cannot be reached (and stops
 * asking for a few seconds, so requests do not each wait for it): rate limits protect capacity,
 * they are not the admission gate.
 */
@Component
public class VisitorRateLimitGatewayFilterFactory
        extends AbstractGatewayFilterFactory<VisitorRateLimitGatewayFilterFactory.Config>
        implements ApplicationContextAware {

    private static final Duration SKIP_AFTER_FAILURE = Duration.ofSeconds(5);

    private final MeterRegistry meters;

    private final Duration redisTimeout;

    /** {@link System#nanoTime()} of the last Redis failure of any limiter. */
    private final AtomicLong unreachableSince = new AtomicLong(System.nanoTime() - SKIP_AFTER_FAILURE.toNanos() * 2);

    private ApplicationContext context;

    VisitorRateLimitGatewayFilterFactory(MeterRegistry meters, EdgeProperties edge) {
        super(Config.class);
        this.meters = meters;
        this.redisTimeout = edge.redisTimeout();
        Gauge.builder("waitroom.gateway.rate.limits.suspended", this, f -> f.suspended() ? 1 : 0)
                .description("1 while per-visitor rate limits are not applied because Redis was unreachable")
                .register(meters);
    }

    boolean suspended() {
        return System.nanoTime() - unreachableSince.get() < SKIP_AFTER_FAILURE.toNanos();
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
            if (suspended()) {
                return chain.filter(exchange);
            }
            return limiter.isAllowed(routeId, visitor.get().value())
                    .timeout(redisTimeout)
                    .onErrorResume(error -> {
                        // do not make every request wait for an unreachable Redis: skip limits for a few seconds
                        unreachableSince.set(System.nanoTime());
                        return Mono.just(new RateLimiter.Response(true, Map.of()));
                    })
                    .flatMap(response -> {
                        if (response.isAllowed()) {
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
