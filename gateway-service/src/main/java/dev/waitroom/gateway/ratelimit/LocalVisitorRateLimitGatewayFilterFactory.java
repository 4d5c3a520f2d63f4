package dev.waitroom.gateway.ratelimit;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;

import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.problem.ProblemType;
import dev.waitroom.tokens.VisitorId;

/**
 * Per-visitor rate limit held in this gateway instance, for status polls: most polls are answered
 * at the edge, so their limit must not cost a Redis round trip each (DESIGN §9: most polls never
 * leave the gateway). Each instance limits on its own, so behind N instances a visitor may poll
 * up to N times the rate: a ceiling against floods, not an exact quota. Refusals are the same
 * 429 problem with {@code Retry-After} as {@link VisitorRateLimitGatewayFilterFactory}.
 */
@Component
public class LocalVisitorRateLimitGatewayFilterFactory
		extends AbstractGatewayFilterFactory<VisitorRateLimitGatewayFilterFactory.Config> {

	static final int MAX_VISITORS = 500_000;

	private final MeterRegistry meters;

	LocalVisitorRateLimitGatewayFilterFactory(MeterRegistry meters) {
		super(VisitorRateLimitGatewayFilterFactory.Config.class);
		this.meters = meters;
	}

	@Override
	public List<String> shortcutFieldOrder() {
		return List.of("replenishRate", "burstCapacity", "requestedTokens");
	}

	@Override
	public GatewayFilter apply(VisitorRateLimitGatewayFilterFactory.Config config) {
		if (config.getReplenishRate() < 1 || config.getBurstCapacity() < config.getReplenishRate()
				|| config.getRequestedTokens() < 1 || config.getRequestedTokens() > config.getBurstCapacity()) {
			throw new IllegalArgumentException(
					"LocalVisitorRateLimit needs 1 <= replenishRate <= burstCapacity and 1 <= requestedTokens <= burstCapacity");
		}
		LocalTokenBuckets buckets = new LocalTokenBuckets(config.getReplenishRate(), config.getBurstCapacity(),
				MAX_VISITORS, System::nanoTime);
		double cost = config.getRequestedTokens();
		long retryAfter = buckets.secondsUntil(cost);
		return (exchange, chain) -> {
			Optional<VisitorId> visitor = VisitorIdentityWebFilter.visitorOf(exchange);
			if (visitor.isEmpty() || buckets.tryTake(visitor.get().value(), cost)) {
				return chain.filter(exchange);
			}
			Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
			Counter.builder("waitroom.gateway.rate.limited")
				.tag("route", route == null ? "unknown" : route.getId())
				.description("Requests refused by a per-visitor rate limit")
				.register(meters)
				.increment();
			exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfter));
			return ProblemResponses.write(exchange, ProblemType.RATE_LIMITED,
					"Too many requests from this browser. Your place is kept; wait " + retryAfter
							+ " s before trying again.",
					Map.of("retryAfterSeconds", retryAfter));
		};
	}

}
