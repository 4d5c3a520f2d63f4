package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * Fails a claim closed when the live-session registry (Redis) cannot be reached: a session
 * admitted now could not be checked on the shop routes, so no new admission is issued
 * (docs/design/architecture.md#fail-closed). The coordinator being down is answered by the error handler with the same problem
 * type.
 */
@Component
public class ClaimGuardGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final ReactiveStringRedisTemplate redis;

    private final EdgeProperties edge;

    private final Counter refused;

    ClaimGuardGatewayFilterFactory(ReactiveStringRedisTemplate redis, EdgeProperties edge, MeterRegistry meters) {
        super(Object.class);
        this.redis = redis;
        this.edge = edge;
        this.refused = Counter.builder("waitroom.gateway.claims.refused")
                .tag("reason", "registry-unreachable")
                .description("Claims refused at the edge because the live-session registry was unreachable")
                .register(meters);
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> redis.execute(connection -> connection.ping())
                .next()
                .timeout(edge.redisTimeout())
                .map(pong -> true)
                .onErrorResume(error -> Mono.just(false))
                .defaultIfEmpty(false)
                .flatMap(reachable -> {
                    if (reachable) {
                        return chain.filter(exchange);
                    }
                    refused.increment();
                    return ProblemResponses.write(
                            exchange,
                            ProblemType.ADMISSION_UNAVAILABLE,
                            "Admission is paused because a system behind the waiting room is unavailable. "
                                    + "Your place is kept; the page keeps trying.");
                });
    }
}
