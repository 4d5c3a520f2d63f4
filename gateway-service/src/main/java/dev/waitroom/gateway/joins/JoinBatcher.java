package dev.waitroom.gateway.joins;

import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.LoadingCache;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.events.EventSnapshots;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Collects the joins of each event into batches for the queue-service ({@link QueuePaths#JOINS}, one Lua call per
 * batch; docs/design/architecture.md#batched-joins). The shape is Nagle's with the batch in flight as the timer: a join that
 * finds no batch of its event in flight is sent at once, alone; joins that arrive while one is in flight wait for it
 * and go together, in arrival order, when it answers. So an idle gateway adds no latency and a busy one sends as many
 * joins per call as arrive during one call, up to {@link JoinBatchProperties#maxSize}. A batch that has waited
 * {@link JoinBatchProperties#maxWait}, or is full, goes beside the one in flight while fewer than
 * {@link JoinBatchProperties#maxInFlight} are.
 *
 * <p>Every join gets its own answer ({@link JoinResult}). A batch that fails as a whole gives each of its joins the
 * same: the queue-service's own answer to the batch (a 503 with Retry-After when its store is down), or the error of a
 * call that failed (refused connection, timeout), which the gateway answers as it answers a forwarded join's. Nothing
 * here blocks: the lock of an event's lane is held only to move a join or a batch between lists.
 */
@Component
class JoinBatcher {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final JoinBatchProperties properties;

    private final WebClient queue;

    private final LoadingCache<EventId, Lane> lanes;

    private final Counter batches;

    private final DistributionSummary sizes;

    private final Counter refused;

    private final AtomicInteger waitingJoins = new AtomicInteger();

    JoinBatcher(
            JoinBatchProperties properties,
            ServicesProperties services,
            SecretsProperties secrets,
            MeterRegistry meters,
            ObservationRegistry observations) {
        this.properties = properties;
        this.queue = EventSnapshots.internalQueueClient(services, secrets, observations);
        // an event's lane lives while joins come; an idle one is dropped (nothing waits in an idle lane)
        this.lanes = Caffeine.newBuilder()
                .expireAfterAccess(Duration.ofMinutes(10))
                .maximumSize(10_000)
                .build(Lane::new);
        this.batches = Counter.builder("waitroom.gateway.joins.batches")
                .description("Batches of joins sent to the queue-service")
                .register(meters);
        this.sizes = DistributionSummary.builder("waitroom.gateway.joins.batch.size")
                .description("Joins per batch sent to the queue-service")
                .serviceLevelObjectives(1, 2, 4, 8, 16, 32, 64, 128, 256)
                .register(meters);
        this.refused = Counter.builder("waitroom.gateway.joins.refused")
                .description("Joins refused because too many of their event waited for a batch")
                .register(meters);
        Gauge.builder("waitroom.gateway.joins.waiting", waitingJoins, AtomicInteger::get)
                .description("Joins waiting for their batch to be sent (a batch of their event is in flight)")
                .register(meters);
    }

    /**
     * Queues one join of {@code event}: its result, or its batch's failure, once the batch is answered; empty when it
     * is refused because {@link JoinBatchProperties#maxPending} joins of the event already wait.
     */
    Optional<Mono<JoinResult>> join(EventId event, JoinBatch.Join join) {
        Pending pending = new Pending(join, Sinks.one());
        Lane lane = lanes.get(event);
        if (!lane.add(pending)) {
            refused.increment();
            return Optional.empty();
        }
        return Optional.of(pending.answer().asMono());
    }

    /** The joins of one event: those waiting, in arrival order, as batches; and how many batches are in flight. */
    private final class Lane {

        private final EventId event;

        private final String instance;

        private final ArrayDeque<Batch> waiting = new ArrayDeque<>();

        private int inFlight;

        private int pending;

        Lane(EventId event) {
            this.event = event;
            this.instance = "/events/" + event.value() + "/queue";
        }

        boolean add(Pending join) {
            Batch send = null;
            Batch arm = null;
            synchronized (this) {
                if (pending >= properties.maxPending()) {
                    return false;
                }
                pending++;
                waitingJoins.incrementAndGet();
                Batch open = waiting.peekLast();
                if (open != null && !open.fits(join)) {
                    open.closed = true;
                }
                if (open == null || open.closed) {
                    open = new Batch();
                    waiting.addLast(open);
                    arm = open;
                }
                open.add(join);
                if (inFlight == 0 || (waiting.peekFirst().full() && inFlight < properties.maxInFlight())) {
                    send = takeFirst();
                }
            }
            if (send != null) {
                send(this, send);
            }
            if (arm != null && arm != send) {
                Batch overdue = arm;
                Mono.delay(properties.maxWait()).subscribe(tick -> overdue(overdue));
            }
            return true;
        }

        /** The batch has waited its max wait: it goes when it is the oldest waiting and a place in flight is free. */
        private void overdue(Batch batch) {
            Batch send = null;
            synchronized (this) {
                if (waiting.peekFirst() == batch && inFlight < properties.maxInFlight()) {
                    send = takeFirst();
                } else {
                    batch.overdue = true;
                }
            }
            if (send != null) {
                send(this, send);
            }
        }

        /** A batch has been answered (or has failed): the next waiting one goes. */
        void answered() {
            Batch send = null;
            synchronized (this) {
                inFlight--;
                if (!waiting.isEmpty() && inFlight < properties.maxInFlight()) {
                    send = takeFirst();
                }
            }
            if (send != null) {
                send(this, send);
            }
        }

        private Batch takeFirst() {
            Batch first = waiting.pollFirst();
            inFlight++;
            pending -= first.joins.size();
            waitingJoins.addAndGet(-first.joins.size());
            return first;
        }
    }

    private void send(Lane lane, Batch batch) {
        List<JoinBatch.Join> joins = new ArrayList<>(batch.joins.size());
        for (Pending p : batch.joins) {
            joins.add(p.join());
        }
        batches.increment();
        sizes.record(joins.size());
        queue.post()
                .uri(QueuePaths.JOINS, lane.event.value())
                .bodyValue(new JoinBatch(joins))
                .exchangeToMono(response -> results(response, joins.size(), lane.instance))
                .timeout(properties.timeout())
                .doFinally(signal -> lane.answered())
                .subscribe(
                        results -> {
                            for (int i = 0; i < batch.joins.size(); i++) {
                                batch.joins.get(i).answer().tryEmitValue(results.get(i));
                            }
                        },
                        error -> batch.joins.forEach(p -> p.answer().tryEmitError(error)));
    }

    /**
     * One result per join: the queue-service's results, or, when it refused the batch as a whole, its answer for each
     * (with the path the visitor joined as the problem's {@code instance}, not the internal one).
     */
    private static Mono<List<JoinResult>> results(ClientResponse response, int joins, String instance) {
        if (response.statusCode().is2xxSuccessful()) {
            return response.bodyToMono(JoinResults.class)
                    .flatMap(r -> r.results().size() == joins
                            ? Mono.just(r.results())
                            : Mono.error(new IllegalStateException("the queue-service answered "
                                    + r.results().size() + " results to " + joins + " joins")));
        }
        String retryAfter = response.headers().asHttpHeaders().getFirst(HttpHeaders.RETRY_AFTER);
        int status = response.statusCode().value();
        return response.bodyToMono(String.class).defaultIfEmpty("").map(body -> {
            JoinResult same = new JoinResult(status, null, null, seconds(retryAfter), withInstance(body, instance));
            return Collections.nCopies(joins, same);
        });
    }

    private static Long seconds(String retryAfter) {
        if (retryAfter == null) {
            return null;
        }
        try {
            return Long.parseLong(retryAfter.trim());
        } catch (NumberFormatException notSeconds) {
            return null;
        }
    }

    private static String withInstance(String problem, String instance) {
        try {
            JsonNode doc = JSON.readTree(problem);
            if (doc instanceof ObjectNode object) {
                object.put("instance", instance);
                return JSON.writeValueAsString(object);
            }
        } catch (RuntimeException notJson) {
            // not a problem document: passed on as it came
        }
        return problem;
    }

    /** A join waiting for its batch's answer. */
    private record Pending(JoinBatch.Join join, Sinks.One<JoinResult> answer) {}

    /** Joins that go to the queue-service in one call, in arrival order. */
    private final class Batch {

        private final List<Pending> joins = new ArrayList<>();

        private int bytes = 16;

        /** Waited its max wait: goes as soon as a place in flight is free. */
        private boolean overdue;

        /** Took no more joins (one did not fit): goes as soon as a place in flight is free. */
        private boolean closed;

        boolean fits(Pending join) {
            return joins.size() < properties.maxSize() && bytes + join.join().wireBytes() <= JoinBatch.MAX_BYTES;
        }

        boolean full() {
            return overdue || closed || joins.size() >= properties.maxSize();
        }

        void add(Pending join) {
            joins.add(join);
            bytes += join.join().wireBytes();
        }
    }
}
