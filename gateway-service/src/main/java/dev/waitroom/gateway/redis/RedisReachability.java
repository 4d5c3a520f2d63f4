package dev.waitroom.gateway.redis;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.problem.ProblemResponses;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Whether the gateway's Redis answered lately, for the routes that fail closed without it (docs/design/abuse/client-limits.md,
 * "When Redis is down"): a PING every second, and any failed Redis call reported by a limiter, mark it unreachable until
 * a PING answers again. Read on the hot path without a network call: minting a visitor identity asks it, not Redis.
 */
@Component
public class RedisReachability implements SmartLifecycle {

    private static final Duration PING_INTERVAL = Duration.ofSeconds(1);

    private final ReactiveStringRedisTemplate redis;

    /** Seconds a visitor is asked to wait when refused: about a failover's length. */
    static final long RETRY_AFTER = 5;

    private final Duration timeout;

    private final MeterRegistry meters;

    /** {@link System#nanoTime()} of the last failure; 0 while reachable. */
    private final AtomicLong failedAt = new AtomicLong();

    private volatile Disposable pinger;

    RedisReachability(ReactiveStringRedisTemplate redis, EdgeProperties edge, MeterRegistry meters) {
        this.redis = redis;
        this.timeout = edge.redisTimeout();
        this.meters = meters;
        Gauge.builder("waitroom.gateway.redis.reachable", this, r -> r.reachable() ? 1 : 0)
                .description("1 while the gateway's Redis answers; 0 while new visitors, joins and claims fail closed")
                .register(meters);
    }

    /**
     * The 503 {@code queue-store-unavailable} problem with {@code Retry-After} for a request that needs Redis while it
     * is unreachable, counted by {@code route}.
     */
    public Mono<Void> refuse(ServerWebExchange exchange, String route) {
        return refuse(
                exchange,
                route,
                ProblemType.QUEUE_STORE_UNAVAILABLE,
                "The waiting room cannot take new visitors or places for a moment. Nothing was made by this "
                        + "request; the page retries by itself.");
    }

    /** The 503 {@code admission-unavailable} problem for a claim while Redis is unreachable (the place is kept). */
    public Mono<Void> refuseAdmission(ServerWebExchange exchange, String route) {
        return refuse(
                exchange,
                route,
                ProblemType.ADMISSION_UNAVAILABLE,
                "Admission is paused because a system behind the waiting room is unavailable. "
                        + "Your place is kept; the page keeps trying.");
    }

    private Mono<Void> refuse(ServerWebExchange exchange, String route, ProblemType problem, String detail) {
        Counter.builder("waitroom.gateway.redis.refused")
                .tag("route", route)
                .description("Requests refused at the edge because the gateway's Redis was unreachable")
                .register(meters)
                .increment();
        exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, Long.toString(RETRY_AFTER));
        return ProblemResponses.write(exchange, problem, detail, Map.of("retryAfterSeconds", RETRY_AFTER));
    }

    /** False from a failed call or PING until a PING answers. */
    public boolean reachable() {
        return failedAt.get() == 0;
    }

    /** A limiter's Redis call failed: fail closed until the next PING answers. */
    public void failed() {
        failedAt.compareAndSet(0, System.nanoTime());
    }

    /** One PING now: true when Redis answered within the gateway's Redis time budget. */
    public Mono<Boolean> ping() {
        return redis.execute(connection -> connection.ping())
                .next()
                .timeout(timeout)
                .map(pong -> {
                    failedAt.set(0);
                    return true;
                })
                .onErrorResume(error -> {
                    failed();
                    return Mono.just(false);
                })
                .defaultIfEmpty(false);
    }

    @Override
    public void start() {
        pinger = Flux.interval(PING_INTERVAL, PING_INTERVAL)
                .onBackpressureDrop()
                .concatMap(tick -> ping(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = pinger;
        if (running != null) {
            running.dispose();
        }
        pinger = null;
    }

    @Override
    public boolean isRunning() {
        return pinger != null;
    }
}
