package dev.waitroom.gateway.origin;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Sends the coordinator this instance's edge health once per report interval: one {@code POST /internal/edge-health}
 * ({@link EdgeHealthReport}) with a window per (event, origin) forwarded to since the last one, the way
 * {@code LivenessBatches} reports liveness to the queue-service. A report goes out even with no window: it tells the
 * coordinator this gateway is there, so an event nobody is forwarded to is idle, not stale. Advisory: a failed report
 * is counted and logged, its windows are lost (the next one measures afresh).
 */
@Component
class EdgeHealthReporter implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(EdgeHealthReporter.class);

    /** This process among the gateways reporting, for the coordinator's logs; never a secret. */
    private final String gateway = "gateway-" + UUID.randomUUID();

    private final OriginWindows windows;

    private final WebClient coordinator;

    private final Clock clock;

    private final Duration interval;

    private final Duration timeout;

    private final Counter sent;

    private final Counter failed;

    private volatile Disposable reporter;

    EdgeHealthReporter(
            OriginWindows windows,
            OriginHealthProperties properties,
            ServicesProperties services,
            SecretsProperties secrets,
            EdgeProperties edge,
            Clock clock,
            MeterRegistry meters,
            ObservationRegistry observations) {
        this.windows = windows;
        this.clock = clock;
        this.interval = properties.reportInterval();
        this.timeout = edge.upstreamTimeout();
        this.coordinator = WebClient.builder()
                .observationRegistry(observations)
                .baseUrl(services.coordinatorUrl().toString())
                .defaultHeader(Headers.INTERNAL, secrets.serviceCredential())
                .build();
        this.sent = reports(meters, "sent");
        this.failed = reports(meters, "failed");
    }

    /** Drains the windows and sends them; completes when the coordinator answered (or the report failed). */
    Mono<Void> report() {
        List<EdgeHealthReport.Window> drained = this.windows.drain(System.nanoTime());
        EdgeHealthReport report = new EdgeHealthReport(
                this.gateway, this.clock.instant(), (int) Math.max(1, this.interval.toSeconds()), drained);
        return this.coordinator
                .post()
                .uri(CoordinatorPaths.EDGE_HEALTH)
                .bodyValue(report)
                .retrieve()
                .toBodilessEntity()
                .timeout(this.timeout)
                .doOnNext(answer -> this.sent.increment())
                .onErrorResume(error -> {
                    this.failed.increment();
                    log.warn("Edge health of {} windows not reported: {}", drained.size(), error.toString());
                    return Mono.empty();
                })
                .then();
    }

    @Override
    public void start() {
        this.reporter = Flux.interval(this.interval, this.interval)
                .onBackpressureDrop()
                .concatMap(tick -> report(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = this.reporter;
        if (running != null) {
            running.dispose();
            this.reporter = null;
        }
    }

    @Override
    public boolean isRunning() {
        return this.reporter != null;
    }

    private static Counter reports(MeterRegistry meters, String outcome) {
        return Counter.builder("waitroom.gateway.edge.health.reports")
                .tag("outcome", outcome)
                .description("Edge health reports this gateway sent the coordinator, by outcome")
                .register(meters);
    }
}
