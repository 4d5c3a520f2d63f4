package dev.waitroom.gateway.routes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.routes.RouteTable;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The protected paths of every live event (docs/integration/gateway-in-front.md), read from the table the coordinator
 * writes to Redis ({@link RedisKeys#ROUTES}) every {@code waitroom.gateway.routes-refresh} off the request path. A
 * request only looks the table up in memory; while Redis cannot be read, the last table read stays in force (a shop
 * stays protected through a Redis outage), and before any table was read nothing is protected by it.
 */
@Component
public class ProtectedRoutes implements SmartLifecycle {

    /**
     * The exchange attribute holding the {@link EventId} whose protected path the request matched; read by the
     * admission check, the cookie filter and the edge health measurements.
     */
    public static final String EVENT_ATTRIBUTE = "waitroom.protected-event";

    /** The exchange attribute holding the matched {@link RouteTable.Entry}. */
    public static final String ENTRY_ATTRIBUTE = ProtectedRoutes.class.getName() + ".entry";

    private static final Logger log = LoggerFactory.getLogger(ProtectedRoutes.class);

    private final ReactiveStringRedisTemplate redis;

    private final Duration refresh;

    private final AtomicReference<RouteTable> table = new AtomicReference<>(RouteTable.EMPTY);

    private final AtomicReference<String> text = new AtomicReference<>("");

    private volatile Disposable refreshing;

    private volatile boolean failing;

    ProtectedRoutes(
            ReactiveStringRedisTemplate redis,
            MeterRegistry meters,
            @Value("${waitroom.gateway.routes-refresh:1s}") Duration refresh) {
        this.redis = redis;
        this.refresh = refresh;
        Gauge.builder(
                        "waitroom.gateway.routes.protected",
                        table,
                        t -> t.get().entries().size())
                .description("Protected paths in the route table in force")
                .register(meters);
    }

    /** The table in force. */
    public RouteTable table() {
        return table.get();
    }

    /** The entry covering the request's raw path, or null; a request that matches remembers it ({@link #entryOf}). */
    public RouteTable.Entry match(ServerWebExchange exchange) {
        RouteTable.Entry entry =
                table.get().match(exchange.getRequest().getURI().getRawPath());
        if (entry != null) {
            exchange.getAttributes().put(EVENT_ATTRIBUTE, entry.eventId());
            exchange.getAttributes().put(ENTRY_ATTRIBUTE, entry);
        }
        return entry;
    }

    /** The entry the request matched, or null. */
    public static RouteTable.Entry entryOf(ServerWebExchange exchange) {
        return exchange.getAttribute(ENTRY_ATTRIBUTE);
    }

    /** The event whose protected path the request matched, or null. */
    public static EventId eventOf(ServerWebExchange exchange) {
        return exchange.getAttribute(EVENT_ATTRIBUTE);
    }

    /** Reads the table once now; the scheduled refresh calls it too. */
    public Mono<RouteTable> refresh() {
        return redis.opsForValue()
                .get(RedisKeys.ROUTES)
                .map(this::install)
                .doOnSuccess(t -> recovered())
                .onErrorResume(ex -> {
                    if (!failing) {
                        failing = true;
                        log.warn("Route table not read, the last one stays in force: {}", ex.toString());
                    }
                    return Mono.empty();
                });
    }

    private RouteTable install(String encoded) {
        if (encoded.equals(text.get())) {
            return table.get();
        }
        RouteTable next = RouteTable.decode(encoded);
        RouteTable current = table.get();
        if (next.version() < current.version()) {
            // a slower coordinator's older write: keep the newer table
            return current;
        }
        table.set(next);
        text.set(encoded);
        log.info(
                "Route table version {} in force: {} protected paths",
                next.version(),
                next.entries().size());
        return next;
    }

    private void recovered() {
        if (failing) {
            failing = false;
            log.info("Route table read again");
        }
    }

    @Override
    public void start() {
        refreshing = Flux.interval(Duration.ZERO, refresh)
                .onBackpressureDrop()
                .concatMap(tick -> refresh(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable d = refreshing;
        if (d != null) {
            d.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        Disposable d = refreshing;
        return d != null && !d.isDisposed();
    }
}
