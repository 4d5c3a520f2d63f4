package dev.waitroom.queue.metrics;

import dev.waitroom.contract.EventId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;

/**
 * Queue counts per event (events are few, so the tag is cheap): joins, status requests, leaves, offers,
 * and the waiting count as last read from Redis.
 */
@Component
public class QueueMetrics {

    private final MeterRegistry registry;
    private final Map<String, AtomicLong> waiting = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> oldestWait = new ConcurrentHashMap<>();
    private final Map<String, AtomicLong> abandoned = new ConcurrentHashMap<>();

    public QueueMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    public void joined(EventId event, boolean created) {
        counter("waitroom.queue.joins", event, "outcome", created ? "created" : "existing")
                .increment();
    }

    /** A join refused by the event's join ceiling (no entry made). */
    public void joinThrottled(EventId event) {
        counter("waitroom.queue.joins", event, "outcome", "throttled").increment();
    }

    public void statusServed(EventId event) {
        counter("waitroom.queue.status.requests", event, "outcome", "served").increment();
    }

    public void left(EventId event) {
        counter("waitroom.queue.left", event, "outcome", "left").increment();
    }

    public void offered(EventId event, long count) {
        counter("waitroom.queue.offered", event, "outcome", "offered").increment(count);
    }

    public void transitioned(EventId event, String target) {
        counter("waitroom.queue.transitions", event, "to", target).increment();
    }

    public void waiting(EventId event, long count) {
        waiting.computeIfAbsent(event.value(), id -> {
                    AtomicLong value = new AtomicLong();
                    Gauge.builder("waitroom.queue.waiting", value, AtomicLong::get)
                            .description("WAITING entries, as last read")
                            .tag("event", id)
                            .register(registry);
                    return value;
                })
                .set(count);
    }

    /** Oldest wait and abandonment, as last counted (the coordinator reads the counts every few seconds). */
    public void counted(EventId event, long oldestWaitSeconds, long abandonedEntries) {
        gauge(
                        oldestWait,
                        "waitroom.queue.oldest.wait.seconds",
                        "Age of the oldest WAITING entry, as last counted",
                        event)
                .set(oldestWaitSeconds);
        gauge(abandoned, "waitroom.queue.abandoned", "Entries whose visitor stopped polling, as last counted", event)
                .set(abandonedEntries);
    }

    private AtomicLong gauge(Map<String, AtomicLong> values, String name, String description, EventId event) {
        return values.computeIfAbsent(event.value(), id -> {
            AtomicLong value = new AtomicLong();
            Gauge.builder(name, value, AtomicLong::get)
                    .description(description)
                    .tag("event", id)
                    .register(registry);
            return value;
        });
    }

    private Counter counter(String name, EventId event, String tag, String value) {
        return Counter.builder(name).tag("event", event.value()).tag(tag, value).register(registry);
    }
}
