package dev.waitroom.coordinator.rate;

import dev.waitroom.contract.EventId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Spring glue for the framework-free {@link EventRates}: settings, a factor gauge per event, a counter and a log line
 * per decision.
 */
@Configuration(proxyBeanMethods = false)
class RateConfiguration {

    private static final Logger log = LoggerFactory.getLogger(RateController.class);

    @Bean
    EventRates eventRates(HealthProperties properties, Clock clock, MeterRegistry meters) {
        RateControllerSettings d = RateControllerSettings.defaults();
        RateControllerSettings settings = new RateControllerSettings(
                properties.staleAfter(),
                d.smoothing(),
                properties.healthyWindowsToIncrease(),
                properties.increaseStep(),
                properties.decreaseFactor(),
                d.minFactor(),
                d.resumeFactor(),
                d.healthyShare(),
                properties.degradedLatencyMs(),
                properties.criticalLatencyMs(),
                d.degradedErrorRate(),
                d.criticalErrorRate(),
                d.degradedPoolPressure(),
                d.criticalPoolPressure(),
                d.degradedHoldFailureRate(),
                d.criticalHoldFailureRate(),
                properties.startFactor(),
                properties.edgeMinRequests(),
                properties.edgeMinFailures());
        java.util.concurrent.atomic.AtomicReference<EventRates> rates =
                new java.util.concurrent.atomic.AtomicReference<>();
        rates.set(EventRates.of(
                settings,
                clock,
                (event, decision) -> {
                    Counter.builder("waitroom.coordinator.rate.decisions")
                            .tag("event", event.value())
                            .tag("kind", decision.kind().name())
                            .register(meters)
                            .increment();
                    log.info(
                            "Admission rate of event {} {}: factor {} -> {} ({}, health {})",
                            event,
                            decision.kind(),
                            String.format("%.2f", decision.factorBefore()),
                            String.format("%.2f", decision.factorAfter()),
                            decision.reason(),
                            decision.status());
                },
                event -> registerEventMeters(meters, rates, event)));
        return rates.get();
    }

    /**
     * An event's factor gauge and its decision counters, each kind a series at 0 from the event's first rate on: an
     * event that starts from the shop's full rate may never decide anything, and a panel on the decisions must still
     * select a series.
     */
    private static void registerEventMeters(
            MeterRegistry meters, java.util.concurrent.atomic.AtomicReference<EventRates> rates, EventId event) {
        Gauge.builder("waitroom.coordinator.rate.factor", rates, r -> r.get().factor(event))
                .description("The factor the event's rate controller applies to its maximum admission rate")
                .tag("event", event.value())
                .strongReference(true)
                .register(meters);
        for (RateDecision.Kind kind : RateDecision.Kind.values()) {
            Counter.builder("waitroom.coordinator.rate.decisions")
                    .tag("event", event.value())
                    .tag("kind", kind.name())
                    .register(meters);
        }
    }

    /**
     * What the rate controller makes of booking's health reports (docs/design/architecture.md, rate controller); the other
     * settings keep {@link RateControllerSettings#defaults()}.
     *
     * @param staleAfter a report older than this no longer counts; no edge report for this long after traffic pauses
     * @param healthyWindowsToIncrease healthy report windows in a row before the admission factor grows
     * @param increaseStep what the admission factor (0 to 1) grows by after enough healthy windows
     * @param decreaseFactor what a degraded window multiplies the admission factor by (0 to 1, exclusive)
     * @param degradedLatencyMs booking's smoothed p95 latency, in milliseconds, from which the rate is cut
     * @param criticalLatencyMs booking's p95 latency of one window, in milliseconds, from which admission pauses
     * @param startFactor what an event admits at (0 to 1) before any health is measured for it
     * @param edgeMinRequests requests an edge window needs for its latency to count
     * @param edgeMinFailures failed requests (5xx, timeouts, connection errors) an edge window needs, carried over
     *     from the windows before, for its error rate to count
     */
    @ConfigurationProperties("waitroom.health")
    record HealthProperties(
            @DefaultValue("3s") Duration staleAfter,
            @DefaultValue("3") int healthyWindowsToIncrease,
            @DefaultValue("0.1") double increaseStep,
            @DefaultValue("0.5") double decreaseFactor,
            @DefaultValue("800") double degradedLatencyMs,
            @DefaultValue("3000") double criticalLatencyMs,
            @DefaultValue("0.2") double startFactor,
            @DefaultValue("3") int edgeMinRequests,
            @DefaultValue("3") int edgeMinFailures) {}
}
