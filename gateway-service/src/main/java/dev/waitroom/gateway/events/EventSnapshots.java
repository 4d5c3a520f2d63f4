package dev.waitroom.gateway.events;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Mono;

/**
 * Per-event edge snapshots, kept only for events that are being asked about. A snapshot is
 * fetched from the queue-service at most once per refresh interval per event, with one call in
 * flight per event however many polls arrive together; idle events are forgotten.
 *
 * <p>Event ids come from the request path, so a client chooses them. At most {@code snapshot-max-events} events are
 * kept, the ones asked about least (Caffeine's frequency-aware LRU) dropped first, so a flood of made-up ids never
 * pushes out the events visitors are polling. An id the queue-service does not know (404) is remembered as unknown for
 * {@value #UNKNOWN_FOR_SECONDS} s ({@link #isUnknown}) and costs no further call in that time, however often it is
 * asked; that record is bounded too.
 */
@Component
public class EventSnapshots {

    private static final Logger log = LoggerFactory.getLogger(EventSnapshots.class);

    private static final Duration IDLE = Duration.ofMinutes(2);

    /**
     * Refreshes forced by a ticket newer than the snapshot ({@link #currentFor}) start at most this often per event:
     * both instants come from the queue-service's clock, but several queue-service instances may disagree a little.
     */
    private static final Duration FORCED_REFRESH_GAP = Duration.ofMillis(200);

    /** How long an event the queue-service answered 404 for is refused without asking again. */
    static final int UNKNOWN_FOR_SECONDS = 5;

    /** Unknown event ids remembered at most: an id is a few dozen bytes, so this is a few MiB at worst. */
    private static final int MAX_UNKNOWN = 100_000;

    private final Cache<EventId, Slot> slots;

    private final Cache<EventId, Boolean> unknown;

    private final WebClient queue;

    private final Clock clock;

    private final EdgeProperties edge;

    private final Counter fetched;

    private final Counter failed;

    public EventSnapshots(
            ServicesProperties services,
            SecretsProperties secrets,
            EdgeProperties edge,
            Clock clock,
            MeterRegistry meters,
            ObservationRegistry observations) {
        // maintenance runs on the caller's thread: it is amortised constant work, and the bound holds at once
        Ticker ticker = () -> {
            Instant now = clock.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        };
        this.slots = Caffeine.newBuilder()
                .maximumSize(edge.snapshotMaxEvents())
                .expireAfterAccess(IDLE)
                .ticker(ticker)
                .executor(Runnable::run)
                .build();
        this.unknown = Caffeine.newBuilder()
                .maximumSize(MAX_UNKNOWN)
                .expireAfterWrite(Duration.ofSeconds(UNKNOWN_FOR_SECONDS))
                .ticker(ticker)
                .executor(Runnable::run)
                .build();
        this.queue = internalQueueClient(services, secrets, observations);
        this.clock = clock;
        this.edge = edge;
        this.fetched = Counter.builder("waitroom.gateway.snapshot.fetches")
                .tag("outcome", "ok")
                .register(meters);
        this.failed = Counter.builder("waitroom.gateway.snapshot.fetches")
                .tag("outcome", "failed")
                .register(meters);
    }

    /**
     * A client of the queue-service's internal API: its address and the internal credential on every call, and an
     * {@code http.client.requests} observation per call, whose span (a new trace: a snapshot or a liveness batch
     * serves many visitors, no single request's) goes to the queue-service as W3C {@code traceparent}. Built with the
     * observation registry directly: Spring Boot 4 auto-configures {@code WebClient.Builder} only with
     * {@code spring-boot-webclient}, which the gateway does not need otherwise.
     */
    public static WebClient internalQueueClient(
            ServicesProperties services, SecretsProperties secrets, ObservationRegistry observations) {
        return WebClient.builder()
                .observationRegistry(observations)
                .baseUrl(services.queueUrl().toString())
                .defaultHeader(Headers.INTERNAL, secrets.serviceCredential())
                .build();
    }

    /**
     * The latest snapshot of the event. Refreshes it when older than the refresh interval: a
     * snapshot younger than the maximum age is returned at once (the refresh runs behind it);
     * otherwise the refresh is awaited. When the queue-service cannot be reached, the last known
     * snapshot is returned however old (callers check its age); empty when none is known.
     */
    public Mono<TimedSnapshot> current(EventId eventId) {
        return get(eventId, edge.snapshotMaxAge(), null);
    }

    /**
     * Like {@link #current}, for a queue ticket issued at {@code issuedAt}: a snapshot generated before the ticket was
     * issued cannot hold its entry, so one is fetched now and awaited (one per event at a time however many polls ask,
     * and at most one started per 200 ms). Only polls within a refresh interval of their join
     * meet this, typically when the join itself read the snapshot (the proof-of-work gate asks it for the event's
     * difficulty).
     */
    public Mono<TimedSnapshot> currentFor(EventId eventId, Instant issuedAt) {
        return get(eventId, edge.snapshotMaxAge(), issuedAt);
    }

    /**
     * Like {@link #current} but never waits for a refresh when any snapshot is known: for callers
     * that need the event's generation and mode, not a fresh waiting order (the shop routes), so a
     * slow queue-service never slows shoppers down.
     */
    public Mono<TimedSnapshot> latest(EventId eventId) {
        return get(eventId, ChronoUnit.FOREVER.getDuration(), null);
    }

    /**
     * Like {@link #latest}, but an event remembered as unknown is asked about again: for the join, which must neither
     * be refused for an event created since the queue-service's 404 nor pass a gate it cannot see. A join to an
     * unknown event was forwarded to the queue-service before, so this costs what that did, and joins are limited per
     * visitor and per client address.
     */
    public Mono<TimedSnapshot> latestAskingAgain(EventId eventId) {
        unknown.invalidate(eventId);
        return latest(eventId);
    }

    /**
     * Holds a warm-up's synthetic snapshot of its private event as a fetch that has just answered would, so the
     * warm-up's joins through the gateway's own routes take the path of a known event's (the queue-service, which
     * never heard of the event, then refuses each join in its batch). A warm-up calls it before each burst of requests:
     * a fetch due later would find the event unknown. Refused for any id but a warm-up's, which no operator can create.
     */
    public void holdWarmUp(EventId eventId, QueueSnapshot snapshot) {
        if (!eventId.isWarmUp() || !eventId.value().equals(snapshot.eventId())) {
            throw new IllegalArgumentException("only a warm-up's own event is held: " + eventId);
        }
        Slot slot = slots.get(eventId, id -> new Slot());
        Instant now = clock.instant();
        slot.snapshot = new TimedSnapshot(snapshot, now);
        slot.lastAttempt = now;
        unknown.invalidate(eventId);
    }

    /** Forgets a warm-up's event: no trace of it stays in the snapshots kept. */
    public void forgetWarmUp(EventId eventId) {
        if (eventId.isWarmUp()) {
            slots.invalidate(eventId);
            unknown.invalidate(eventId);
        }
    }

    /**
     * Whether the queue-service said, within the last {@value #UNKNOWN_FOR_SECONDS} s, that it has no such event:
     * {@link #current}, {@link #currentFor} and {@link #latest} are then empty without a call.
     */
    public boolean isUnknown(EventId eventId) {
        return unknown.getIfPresent(eventId) != null;
    }

    private Mono<TimedSnapshot> get(EventId eventId, Duration usableFor, Instant notBefore) {
        if (isUnknown(eventId)) {
            return Mono.empty();
        }
        Slot slot = slots.get(eventId, id -> new Slot());
        Instant now = clock.instant();
        TimedSnapshot known = slot.snapshot;
        Instant lastAttempt = slot.lastAttempt;
        if (notBefore != null
                && known != null
                && known.snapshot().generatedAt() != null
                && known.snapshot().generatedAt().isBefore(notBefore)) {
            Mono<TimedSnapshot> fresher = null;
            // one decision under the slot's lock: a poll that found no fetch in flight but came within the gap of
            // the one that is starting it would otherwise be answered from the older snapshot
            synchronized (slot) {
                if (slot.inFlight != null) { // polls arriving while the fetch runs join it
                    fresher = slot.inFlight;
                } else if (Duration.between(slot.lastForced, now).compareTo(FORCED_REFRESH_GAP) >= 0) {
                    slot.lastForced = now;
                    fresher = refresh(eventId, slot);
                }
            }
            if (fresher != null) {
                return fresher.onErrorResume(error -> Mono.justOrEmpty(slot.snapshot));
            }
        }
        if (lastAttempt != null && Duration.between(lastAttempt, now).compareTo(edge.snapshotRefreshInterval()) < 0) {
            if (known != null) {
                return Mono.just(known);
            }
            Mono<TimedSnapshot> inFlight;
            synchronized (slot) { // the first fetch may be starting right now: join it rather than miss it
                inFlight = slot.inFlight;
            }
            return inFlight != null ? inFlight.onErrorResume(error -> Mono.empty()) : Mono.justOrEmpty(slot.snapshot);
        }
        Mono<TimedSnapshot> refresh = refresh(eventId, slot);
        if (known != null && known.ageAt(now).compareTo(usableFor) < 0) {
            refresh.subscribe(ok -> {}, error -> {});
            return Mono.just(known);
        }
        return refresh.onErrorResume(error -> Mono.justOrEmpty(slot.snapshot));
    }

    private Mono<TimedSnapshot> refresh(EventId eventId, Slot slot) {
        synchronized (slot) {
            if (slot.inFlight != null) {
                return slot.inFlight;
            }
            slot.lastAttempt = clock.instant();
            Mono<TimedSnapshot> call = queue.get()
                    .uri(QueuePaths.SNAPSHOT, eventId.value())
                    .retrieve()
                    .bodyToMono(QueueSnapshot.class)
                    .timeout(edge.upstreamTimeout())
                    .map(snapshot -> new TimedSnapshot(snapshot, clock.instant()))
                    .doOnNext(timed -> {
                        slot.snapshot = timed;
                        fetched.increment();
                    })
                    .doOnError(error -> {
                        failed.increment();
                        if (error instanceof WebClientResponseException wce
                                && wce.getStatusCode() == HttpStatus.NOT_FOUND) {
                            slot.snapshot = null;
                            unknown.put(eventId, Boolean.TRUE);
                            slots.asMap().remove(eventId, slot);
                        } else {
                            log.warn("Snapshot of event {} not refreshed: {}", eventId, error.toString());
                        }
                    })
                    .doFinally(signal -> {
                        synchronized (slot) {
                            slot.inFlight = null;
                        }
                    })
                    .cache();
            slot.inFlight = call;
            return call;
        }
    }

    long eventsKept() {
        slots.cleanUp();
        return slots.estimatedSize();
    }

    private static final class Slot {

        volatile TimedSnapshot snapshot;

        volatile Instant lastAttempt;

        volatile Instant lastForced = Instant.EPOCH;

        Mono<TimedSnapshot> inFlight; // guarded by the slot
    }
}
