package dev.waitroom.queue.metrics;

import dev.waitroom.contract.EventId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.springframework.stereotype.Component;

/**
 * Queue counts per event (events are few, so the tag is cheap): joins, status requests, leaves, offers. The gauges
 * (waiting, oldest wait, entries by state, unseen visitors) are {@link QueueGauges}', read from Redis on a schedule.
 */
@Component
public class QueueMetrics {

    private final MeterRegistry registry;
    private final Set<EventId> watched = ConcurrentHashMap.newKeySet();
    private volatile Consumer<EventId> onWatch = event -> {};

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

    /**
     * Names an event this instance serves, so that {@link QueueGauges} reads its figures from Redis on its schedule
     * (a set lookup; the figures themselves are never computed on a request).
     */
    public void watch(EventId event) {
        if (!watched.contains(event) && watched.add(event)) {
            onWatch.accept(event);
        }
    }

    /** Called once for each event newly watched (registers its gauges, NaN until first read). */
    void onWatch(Consumer<EventId> listener) {
        this.onWatch = listener;
    }

    void unwatch(EventId event) {
        watched.remove(event);
    }

    Set<EventId> watched() {
        return watched;
    }

    private Counter counter(String name, EventId event, String tag, String value) {
        return Counter.builder(name).tag("event", event.value()).tag(tag, value).register(registry);
    }
}
