package dev.waitroom.coordinator.queue.http;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.Candidates;
import dev.waitroom.contract.queue.DrawRequest;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EntryTransition;
import dev.waitroom.contract.queue.EntryTransitionResult;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.LaneMove;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.OfferResults;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.QueuePaths;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.tokens.VisitorId;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/**
 * {@link QueueDirectory} over HTTP in the contract's records, with the coordinator's own credential and short timeouts. Built
 * from Spring Boot's {@code RestClient.Builder}, whose {@code http.client.requests} observation sends the current
 * trace to the queue-service as W3C {@code traceparent} (the request's trace during an ops call, the tick's own
 * otherwise); the queue-service's request id is then that trace id (docs/operating/observability.md).
 */
public final class RestClientQueueDirectory implements QueueDirectory {

    /** Answers that mean "no, and asking again will not change it"; other 4xx (auth, throttling) are retried. */
    private static final Set<Integer> REFUSALS = Set.of(400, 404, 409, 410, 422);

    private static final String CANDIDATES = QueuePaths.CANDIDATES + "?" + QueuePaths.CANDIDATES_LIMIT + "={limit}";

    private static final String LANE_CANDIDATES = CANDIDATES + "&" + QueuePaths.CANDIDATES_LANE + "={lane}";
    private static final String DROP = QueuePaths.EVENT + "?" + QueuePaths.DROP_IF_EMPTY + "={ifEmpty}";

    private final RestClient http;

    private RestClientQueueDirectory(RestClient http) {
        this.http = http;
    }

    public static RestClientQueueDirectory of(
            RestClient.Builder builder,
            String baseUrl,
            String serviceCredential,
            Duration connectTimeout,
            Duration readTimeout) {
        HttpClient client =
                HttpClient.newBuilder().connectTimeout(connectTimeout).build();
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(client);
        factory.setReadTimeout(readTimeout);
        RestClient http = builder.baseUrl(baseUrl)
                .requestFactory(factory)
                .defaultHeader(Headers.INTERNAL, serviceCredential)
                .build();
        return new RestClientQueueDirectory(http);
    }

    @Override
    public void putEventState(EventId eventId, EventUpdateRequest state) {
        call(
                "put event state",
                () -> this.http
                        .put()
                        .uri(QueuePaths.EVENT, eventId)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(state)
                        .retrieve()
                        .toBodilessEntity());
    }

    @Override
    public void dropEvent(EventId eventId, boolean onlyIfEmpty) {
        call(
                "drop event",
                () -> this.http
                        .delete()
                        .uri(DROP, eventId, onlyIfEmpty)
                        .retrieve()
                        .toBodilessEntity());
    }

    @Override
    public DrawResult draw(EventId eventId, String seedHex) {
        return call(
                "draw",
                () -> this.http
                        .post()
                        .uri(QueuePaths.DRAW, eventId)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(new DrawRequest(seedHex))
                        .retrieve()
                        .body(DrawResult.class));
    }

    @Override
    public List<Candidate> candidates(EventId eventId, int limit) {
        Candidates body = call(
                "candidates",
                () -> this.http.get().uri(CANDIDATES, eventId, limit).retrieve().body(Candidates.class));
        return body == null
                ? List.of()
                : body.entries().stream()
                        .map(RestClientQueueDirectory::candidate)
                        .toList();
    }

    @Override
    public List<Candidate> candidates(EventId eventId, String lane, int limit) {
        Candidates body = call(
                "candidates",
                () -> this.http
                        .get()
                        .uri(LANE_CANDIDATES, eventId, limit, lane)
                        .retrieve()
                        .body(Candidates.class));
        return body == null
                ? List.of()
                : body.entries().stream()
                        .map(RestClientQueueDirectory::candidate)
                        .toList();
    }

    @Override
    public LaneMoveResult moveToLane(EventId eventId, VisitorId visitor, String account, String lane) {
        try {
            return this.http
                    .post()
                    .uri(QueuePaths.LANE, eventId)
                    .contentType(MediaType.APPLICATION_JSON)
                    .body(new LaneMove(visitor.value(), account, lane))
                    .retrieve()
                    .body(LaneMoveResult.class);
        } catch (HttpClientErrorException ex) {
            if (ex.getStatusCode().value() == 404) {
                throw new CoordinatorException(
                        ProblemType.NOT_IN_QUEUE, "Join the queue first: an access code moves a place you hold.", ex);
            }
            if (ex.getStatusCode().value() == 409) {
                throw new CoordinatorException(
                        ProblemType.STATE_CONFLICT,
                        "Only a waiting place can move to a lane; nothing was spent of the code.",
                        ex);
            }
            throw new QueueUnavailableException("The queue service did not take the lane call.", ex);
        } catch (RestClientException ex) {
            throw new QueueUnavailableException("The queue service did not answer the lane call.", ex);
        }
    }

    /** The entry and its visitor typed; a malformed one is the queue misbehaving, not a refusal. */
    private static Candidate candidate(dev.waitroom.contract.queue.Candidate entry) {
        if (!VisitorId.isValid(entry.visitor())) {
            throw new QueueUnavailableException(
                    "The queue service answered the candidates call with a malformed visitor.", null);
        }
        EntryId entryId;
        try {
            entryId = new EntryId(entry.entryId());
        } catch (MalformedValueException ex) {
            throw new QueueUnavailableException(
                    "The queue service answered the candidates call with a malformed entry id.", ex);
        }
        return new Candidate(entryId, new VisitorId(entry.visitor()), entry.orderKey());
    }

    @Override
    public List<OfferResult> offer(EventId eventId, List<Offer> offers) {
        OfferBatch batch = new OfferBatch(offers.stream()
                .map(o -> new dev.waitroom.contract.queue.Offer(
                        o.entryId().value(), o.grantId().toString(), o.expiresAt()))
                .toList());
        OfferResults body = call(
                "offers",
                () -> this.http
                        .post()
                        .uri(QueuePaths.OFFERS, eventId)
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(batch)
                        .retrieve()
                        .body(OfferResults.class));
        return body == null ? List.of() : body.results();
    }

    @Override
    public String transition(EventId eventId, EntryId entryId, TransitionTarget to, GrantId grantId) {
        EntryTransitionResult body = call(
                "transition",
                () -> this.http
                        .post()
                        .uri(QueuePaths.TRANSITION, eventId, entryId.value())
                        .contentType(MediaType.APPLICATION_JSON)
                        .body(EntryTransition.of(to, grantId.toString()))
                        .retrieve()
                        .body(EntryTransitionResult.class));
        return body == null ? null : body.state();
    }

    @Override
    public QueueCounts counts(EventId eventId) {
        return call(
                "counts",
                () -> this.http.get().uri(QueuePaths.COUNTS, eventId).retrieve().body(QueueCounts.class));
    }

    private static <T> T call(String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (HttpClientErrorException ex) {
            if (!REFUSALS.contains(ex.getStatusCode().value())) {
                throw new QueueUnavailableException("The queue service did not take the " + what + " call.", ex);
            }
            throw new QueueRejectedException(
                    "The queue service refused the " + what + " call: " + ex.getStatusCode(), ex);
        } catch (RestClientException ex) {
            throw new QueueUnavailableException("The queue service did not answer the " + what + " call.", ex);
        }
    }
}
