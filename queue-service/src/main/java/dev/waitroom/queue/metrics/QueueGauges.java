package dev.waitroom.queue.metrics;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.config.QueueProperties;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.stereotype.Component;

/**
 * The queue's gauges, read from Redis on a thread of their own, never from a request (docs/reference/metrics.md):
 * every {@code waitroom.queue.gauges.refresh} (5 s) the counters and the front of each watched event
 * ({@code waitroom.queue.waiting}, {@code waitroom.queue.oldest.wait.seconds}, {@code waitroom.queue.entries} by
 * state, {@code waitroom.queue.offers.expired}); every {@code unseen-refresh} (30 s) the waiting entries not seen for
 * {@code unseen-after} ({@code waitroom.queue.waiting.unseen}, tag {@code minutes}). A figure that could not be read
 * (Redis away) is NaN, not an old one.
 *
 * <p>Watched events are those this instance has served a request for ({@link QueueMetrics#watch}); the gateways
 * read every live event's snapshot each second from every instance they balance over, so every instance watches
 * every live event. Every instance publishes the same figures, read from the one Redis: a panel takes
 * {@code max by (event)}, never a sum. An event Redis no longer knows is dropped with its gauges.
 */
@Component
class QueueGauges implements InitializingBean, DisposableBean {

    private static final Logger log = LoggerFactory.getLogger(QueueGauges.class);

    /** Entry states counted by the event's counters hash, by their field there. */
    private static final List<String> STATES = List.of("waiting", "offered", "active", "completed", "left", "expired");

    private final QueueMetrics metrics;
    private final GaugeReads reads;
    private final MeterRegistry registry;
    private final Clock clock;
    private final QueueGaugeProperties properties;
    private final Map<EventId, Figures> figures = new ConcurrentHashMap<>();
    private final ScheduledExecutorService refresher = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "queue-gauges");
        t.setDaemon(true);
        return t;
    });

    QueueGauges(
            QueueMetrics metrics,
            GaugeReads reads,
            MeterRegistry registry,
            Clock clock,
            QueueGaugeProperties properties,
            QueueProperties queue) {
        if (properties.unseenAfter().compareTo(queue.livenessInterval()) <= 0) {
            throw new IllegalStateException("waitroom.queue.gauges.unseen-after (" + properties.unseenAfter()
                    + ") must be longer than waitroom.queue.liveness-interval (" + queue.livenessInterval()
                    + "), how rarely a poll writes last-seen");
        }
        this.metrics = metrics;
        this.reads = reads;
        this.registry = registry;
        this.clock = clock;
        this.properties = properties;
        metrics.onWatch(this::figures);
    }

    @Override
    public void afterPropertiesSet() {
        refresher.scheduleWithFixedDelay(
                this::refreshCounts, 0, properties.refresh().toMillis(), TimeUnit.MILLISECONDS);
        refresher.scheduleWithFixedDelay(
                this::refreshUnseen, 0, properties.unseenRefresh().toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void destroy() {
        refresher.shutdownNow();
    }

    /** Reads the counters and the front of every watched event now. */
    void refreshCounts() {
        for (EventId event : metrics.watched()) {
            try {
                Map<String, String> counters = reads.counters(event);
                if (counters == null) {
                    forget(event);
                    continue;
                }
                Figures f = figures(event);
                for (String state : STATES) {
                    f.entries.get(state).set(number(counters, state));
                }
                f.offersExpired = number(counters, "offerExpired");
                String front = counters.get("frontJoinedAt");
                f.oldestWait =
                        front == null ? 0 : Math.max(0, clock.instant().getEpochSecond() - Long.parseLong(front));
            } catch (RuntimeException e) {
                figures(event).unread();
                log.debug("queue gauges of {} not read: {}", event.value(), e.toString());
            }
        }
    }

    /** Scans the waiting entries of every watched event for those not seen since {@code unseen-after} ago. */
    void refreshUnseen() {
        long cutoff = clock.instant().minus(properties.unseenAfter()).getEpochSecond();
        for (EventId event : metrics.watched()) {
            try {
                figures(event).unseen = reads.unseen(event, cutoff, properties.scanBuckets());
            } catch (RuntimeException e) {
                figures(event).unseen = Double.NaN;
                log.debug("unseen visitors of {} not counted: {}", event.value(), e.toString());
            }
        }
    }

    private Figures figures(EventId event) {
        return figures.computeIfAbsent(event, this::register);
    }

    private Figures register(EventId event) {
        Figures f = new Figures();
        String id = event.value();
        f.meters.add(Gauge.builder("waitroom.queue.waiting", f, x -> x.entries.get("waiting").value)
                .description("WAITING entries of the event, from its counters in Redis, read every few seconds")
                .tag("event", id)
                .register(registry));
        f.meters.add(Gauge.builder("waitroom.queue.oldest.wait.seconds", f, x -> x.oldestWait)
                .description("How long the entry at the front of the queue has waited; 0 when nobody waits")
                .tag("event", id)
                .register(registry));
        for (String state : STATES) {
            f.meters.add(Gauge.builder("waitroom.queue.entries", f, x -> x.entries.get(state).value)
                    .description("Entries of the event now in this state, from its counters in Redis")
                    .tag("event", id)
                    .tag("state", state)
                    .register(registry));
        }
        f.meters.add(Gauge.builder("waitroom.queue.offers.expired", f, x -> x.offersExpired)
                .description("Offers of the event that expired unclaimed, since it began")
                .tag("event", id)
                .register(registry));
        f.meters.add(Gauge.builder("waitroom.queue.waiting.unseen", f, x -> x.unseen)
                .description("WAITING entries whose visitor has not been seen (no poll, no join) for this many minutes")
                .tag("event", id)
                .tag("minutes", properties.unseenMinutes())
                .register(registry));
        return f;
    }

    private void forget(EventId event) {
        metrics.unwatch(event);
        Figures f = figures.remove(event);
        if (f != null) {
            f.meters.forEach(registry::remove);
        }
    }

    private static double number(Map<String, String> m, String field) {
        String v = m.get(field);
        return v == null ? 0 : Double.parseDouble(v);
    }

    /** One event's figures as last read; NaN until read. */
    private static final class Figures {
        final Map<String, Value> entries = new ConcurrentHashMap<>();
        final List<Meter> meters = new ArrayList<>();
        volatile double oldestWait = Double.NaN;
        volatile double offersExpired = Double.NaN;
        volatile double unseen = Double.NaN;

        Figures() {
            for (String state : STATES) {
                entries.put(state, new Value());
            }
        }

        void unread() {
            entries.values().forEach(v -> v.set(Double.NaN));
            oldestWait = Double.NaN;
            offersExpired = Double.NaN;
        }
    }

    private static final class Value {
        volatile double value = Double.NaN;

        void set(double v) {
            value = v;
        }
    }
}
