package dev.waitroom.gateway.status;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.LivenessBatch;
import dev.waitroom.contract.queue.LivenessResult;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Liveness of the visitors whose polls the edge answered, recorded in batches: each answered poll
 * adds its entry here, and once per flush interval the entries of each event go to the
 * queue-service in a few requests ({@link LivenessBatch}) of up to {@link LivenessBatch#MAX_ENTRIES} entries (one Lua
 * call each), instead
 * of one forwarded poll per visitor per liveness interval. The queue-service answers which entries
 * are no longer waiting for the visitor named (left, offered, someone else's ticket); their next
 * polls are forwarded until a ticket issued after that answer comes back. Each entry is reported at
 * most once per report interval (the granularity the queue-service keeps last-seen at), so the
 * queue-service sees one write per waiting visitor per interval, not one per poll. Bounded: at most
 * {@code maxPending} entries wait for a flush (more are counted as dropped and seen on a later poll),
 * and the changed entries are a Caffeine cache.
 */
@Component
public class LivenessBatches implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(LivenessBatches.class);

    private final ConcurrentHashMap<EventId, Set<String>> pending = new ConcurrentHashMap<>();

    private final AtomicInteger pendingCount = new AtomicInteger();

    private final Cache<String, Instant> changed;

    /** Entries reported within the report interval: not reported again until it has passed. */
    private final Cache<String, Boolean> reported;

    private final WebClient queue;

    private final Clock clock;

    private final Duration interval;

    private final Duration timeout;

    private final int maxPending;

    private final Counter recorded;

    private final Counter notWaiting;

    private final Counter dropped;

    private final Counter failed;

    private volatile Disposable flusher;

    LivenessBatches(
            ServicesProperties services,
            SecretsProperties secrets,
            EdgeProperties edge,
            Clock clock,
            MeterRegistry meters,
            ObservationRegistry observations) {
        this.queue = EventSnapshots.internalQueueClient(services, secrets, observations);
        this.clock = clock;
        this.interval = edge.livenessFlushInterval();
        this.timeout = edge.upstreamTimeout();
        this.maxPending = edge.livenessMaxPending();
        this.changed = Caffeine.newBuilder()
                .maximumSize(edge.livenessMaxPending())
                .expireAfterWrite(edge.ticketMaxAge())
                .build();
        this.reported = Caffeine.newBuilder()
                .maximumSize(edge.rateLimits().status().maxVisitors())
                .expireAfterWrite(edge.livenessReportInterval())
                .build();
        this.recorded = entries(meters, "recorded");
        this.notWaiting = entries(meters, "not-waiting");
        this.dropped = entries(meters, "dropped");
        this.failed = entries(meters, "failed");
    }

    /** The edge answered this entry's poll for this visitor: record its liveness with the next flush. */
    void seen(EventId eventId, String entryId, VisitorId visitor) {
        String key = eventId.value() + '/' + entryId + '/' + visitor.value();
        if (reported.getIfPresent(key) != null) {
            return;
        }
        if (pendingCount.get() >= maxPending) {
            dropped.increment();
            return;
        }
        reported.put(key, Boolean.TRUE);
        if (pending.computeIfAbsent(eventId, id -> ConcurrentHashMap.newKeySet())
                .add(entryId + ' ' + visitor.value())) {
            pendingCount.incrementAndGet();
        }
    }

    /**
     * When the queue-service last said this entry is no longer waiting, or null: a ticket issued
     * before then must not be answered at the edge.
     */
    Instant changedAt(EventId eventId, String entryId) {
        return changed.getIfPresent(eventId.value() + '/' + entryId);
    }

    int pending() {
        return pendingCount.get();
    }

    /** Sends every pending entry; completes when every batch has been answered (or has failed). */
    Mono<Void> flush() {
        List<Mono<Void>> calls = new ArrayList<>();
        for (Map.Entry<EventId, Set<String>> event : pending.entrySet()) {
            Set<String> taken = pending.remove(event.getKey());
            if (taken == null || taken.isEmpty()) {
                continue;
            }
            pendingCount.addAndGet(-taken.size());
            List<LivenessBatch.Seen> batch = new ArrayList<>(Math.min(LivenessBatch.MAX_ENTRIES, taken.size()));
            for (String entry : taken) {
                int space = entry.indexOf(' ');
                batch.add(new LivenessBatch.Seen(entry.substring(0, space), entry.substring(space + 1)));
                if (batch.size() == LivenessBatch.MAX_ENTRIES) {
                    calls.add(send(event.getKey(), batch));
                    batch = new ArrayList<>(LivenessBatch.MAX_ENTRIES);
                }
            }
            if (!batch.isEmpty()) {
                calls.add(send(event.getKey(), batch));
            }
        }
        return Flux.fromIterable(calls).flatMap(call -> call, 4).then();
    }

    private Mono<Void> send(EventId eventId, List<LivenessBatch.Seen> batch) {
        return queue.post()
                .uri(QueuePaths.LIVENESS, eventId.value())
                .bodyValue(LivenessBatch.of(batch))
                .retrieve()
                .bodyToMono(LivenessResult.class)
                .timeout(timeout)
                .doOnNext(result -> {
                    Instant now = clock.instant();
                    List<String> moved = result.notWaiting();
                    moved.forEach(entry -> changed.put(eventId.value() + '/' + entry, now));
                    notWaiting.increment(moved.size());
                    recorded.increment(batch.size() - moved.size());
                })
                .onErrorResume(error -> {
                    // liveness is advisory: the visitors poll again and are recorded with a later batch
                    failed.increment(batch.size());
                    log.warn(
                            "Liveness of {} entries of event {} not recorded: {}",
                            batch.size(),
                            eventId,
                            error.toString());
                    return Mono.empty();
                })
                .then();
    }

    @Override
    public void start() {
        flusher = Flux.interval(interval, interval)
                .onBackpressureDrop()
                .concatMap(tick -> flush(), 1)
                .subscribe();
    }

    @Override
    public void stop() {
        Disposable running = flusher;
        if (running != null) {
            running.dispose();
            flusher = null;
        }
        flush().block(timeout.multipliedBy(2));
    }

    @Override
    public boolean isRunning() {
        return flusher != null;
    }

    private static Counter entries(MeterRegistry meters, String outcome) {
        return Counter.builder("waitroom.gateway.liveness.entries")
                .tag("outcome", outcome)
                .description("Entries whose liveness the edge reported to the queue-service in batches, by outcome")
                .register(meters);
    }
}
