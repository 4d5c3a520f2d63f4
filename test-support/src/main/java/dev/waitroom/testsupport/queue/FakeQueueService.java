package dev.waitroom.testsupport.queue;

import static dev.waitroom.testsupport.StubReply.problem;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.Candidates;
import dev.waitroom.contract.queue.DrawRequest;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EntryTransition;
import dev.waitroom.contract.queue.EntryTransitionResult;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.LaneMove;
import dev.waitroom.contract.queue.LivenessBatch;
import dev.waitroom.contract.queue.LivenessResult;
import dev.waitroom.contract.queue.Offer;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResults;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.testsupport.RecordedRequest;
import dev.waitroom.testsupport.RecordingHttpServer;
import dev.waitroom.testsupport.ServiceCredentials;
import dev.waitroom.testsupport.StubReply;
import dev.waitroom.testsupport.queue.FakeQueueEntry.State;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorId;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * The queue-service over HTTP on loopback for the tests of its two callers (docs/reference/contracts.md), over an
 * in-memory model per event ({@link FakeQueueEvent}): the gateway's joins (single and batched), visitor status, leave,
 * public status, the edge snapshot and liveness batches; the coordinator's event push and drop, the pre-sale draw,
 * candidates (general and per lane), lane moves, offers, transitions and counts. Bodies are the contract's records;
 * real queue tickets are issued with the ticket key. {@code QueueContractScenarios} holds it against the real
 * queue-service: where they differ, this is wrong.
 *
 * <p>Like the real one: entry ids are the base-36 join sequence; order keys are that sequence after opening and 0
 * before it until the draw orders the pre-sale group by HMAC-SHA256(seed, entry id) (or join order for FIFO); with no
 * pre-sale group nothing waits for a draw; a requeue takes the next sequence as its order key; the queue keeps the last
 * grant it offered an entry, and a transition names that grant; a visitor whose place is spent (EXPIRED, or COMPLETED
 * unless afterPurchase is KEEP) joins anew at the back (issue 17); a dropped event refuses a push for two minutes;
 * each caller is held to its own routes ({@link #gatewaysRoute}: the gateway's credential on a coordinator route, or
 * the reverse, is 403 {@code caller-not-allowed}, as the queue-service's {@code waitroom.web.callers} says).
 * Deliberately simpler: {@code pollAfterSeconds} is always 2 (pages under test poll quickly), and an account's place
 * is the visitor's.
 *
 * <p>On top, a test may shape events directly ({@link #event}), read what arrived ({@link #received}), and make the
 * service fail as HTTP: {@link #unavailable} (503 to everything), {@link #failOffers} (503 to offers: a crash between
 * the coordinator's commit and telling the queue), {@link #stallCandidates} (a slow candidates answer).
 */
public final class FakeQueueService extends RecordingHttpServer {

    /** The queue-service's default {@code waitroom.queue.max-batch}: most candidates or offers per call. */
    static final int MAX_BATCH = 1000;

    private static final Pattern SEED = Pattern.compile("([0-9a-f]{2}){16,128}");

    private static final Pattern GRANT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** How long a dropped event refuses a push (the queue-service's tombstone). */
    private static final Duration TOMBSTONE = Duration.ofMinutes(2);

    private static final SecureRandom RANDOM = new SecureRandom();

    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

    private static volatile FakeQueueService shared;

    private final String gatewayCredential;

    private final String coordinatorCredential;

    private final String ticketKey;

    private final QueueTicketCodec tickets;

    private final Map<String, FakeQueueEvent> events = new ConcurrentHashMap<>();

    /** Dropped events and until when a push of their state is refused. */
    private final Map<String, Instant> dropped = new ConcurrentHashMap<>();

    private volatile boolean unavailable;

    private volatile boolean failOffers;

    private volatile double stallProbability;

    private volatile long stallNanos;

    private FakeQueueService(String gatewayCredential, String coordinatorCredential, String ticketKey) {
        super(8);
        this.gatewayCredential = gatewayCredential;
        this.coordinatorCredential = coordinatorCredential;
        this.ticketKey = ticketKey;
        this.tickets = QueueTicketCodec.of(HmacKey.fromBase64(ticketKey));
    }

    /**
     * A fake answering calls with either credential ({@code X-Waitroom-Internal}), issuing tickets with {@code
     * ticketKey} (base64 of an HMAC key); close it when done.
     */
    public static FakeQueueService start(String gatewayCredential, String coordinatorCredential, String ticketKey) {
        return new FakeQueueService(gatewayCredential, coordinatorCredential, ticketKey);
    }

    /**
     * The fake of this test JVM, with fresh secrets, started on first use and stopped with the JVM; tests keep apart
     * by their own event ids, and put back any fault they set.
     */
    public static FakeQueueService shared() {
        FakeQueueService s = shared;
        if (s == null) {
            synchronized (FakeQueueService.class) {
                s = shared;
                if (s == null) {
                    byte[] key = new byte[32];
                    RANDOM.nextBytes(key);
                    s = start(
                            ServiceCredentials.generate("gateway").credential(),
                            ServiceCredentials.generate("coordinator").credential(),
                            Base64.getEncoder().encodeToString(key));
                    shared = s;
                }
            }
        }
        return s;
    }

    public String gatewayCredential() {
        return gatewayCredential;
    }

    public String coordinatorCredential() {
        return coordinatorCredential;
    }

    /** Base64 of the HMAC key of the queue tickets it issues. */
    public String ticketKey() {
        return ticketKey;
    }

    public String ticketFor(QueueTicket ticket) {
        return tickets.encode(ticket);
    }

    // faults

    /** While set, every request is answered 503, as a queue-service without its Redis would. */
    public void unavailable(boolean unavailable) {
        this.unavailable = unavailable;
    }

    /** While set, offer calls are answered 503 (a crash or outage between the Postgres commit and telling the queue). */
    public void failOffers(boolean fail) {
        this.failOffers = fail;
    }

    /** With this probability a candidates call answers only after {@code nanos} (a slow network, a GC pause). */
    public void stallCandidates(double probability, long nanos) {
        this.stallProbability = probability;
        this.stallNanos = nanos;
    }

    // what a test shapes and reads directly

    /** The event's model, created open and queueing (its pre-sale draw an hour ago) on first use. */
    public FakeQueueEvent event(String eventId) {
        return events.computeIfAbsent(eventId, FakeQueueEvent::drawnAnHourAgo);
    }

    /** Whether the queue holds a state of the event (pushed, or made by a test, and not dropped). */
    public boolean knows(String eventId) {
        FakeQueueEvent event = events.get(eventId);
        return event != null && event.stored;
    }

    /**
     * A visitor joins, as the gateway's join does; returns the entry id (the receipt). An {@link IllegalStateException}
     * names the problem where the real queue refuses (an unknown event, a new place in an ENDED or SOLD_OUT event).
     */
    public String join(String eventId, String visitor) {
        try {
            return joinEntry(eventId, visitor).entry().entryId();
        } catch (Refusal refused) {
            throw new IllegalStateException(refused.getMessage());
        }
    }

    /** The visitor leaves (WAITING -> LEFT; again is a no-op); an {@link IllegalStateException} where the queue refuses. */
    public void leave(String eventId, String visitor) {
        try {
            known(eventId).leave(visitor);
        } catch (Refusal refused) {
            throw new IllegalStateException(refused.getMessage());
        }
    }

    /** The visitor's latest entry, or null. */
    public FakeQueueEntry entry(String eventId, String visitor) {
        FakeQueueEvent event = events.get(eventId);
        return event == null ? null : event.entryOf(visitor);
    }

    /** WAITING entries never offered before (requeued ones go to the back on purpose). */
    public List<FakeQueueEntry> waitingFirstTime(String eventId) {
        FakeQueueEvent event = events.get(eventId);
        return event == null ? List.of() : event.waitingFirstTime();
    }

    /** The coordinator's last push of the event's state as it arrived, or null. */
    public EventUpdateRequest lastState(String eventId) {
        FakeQueueEvent event = events.get(eventId);
        return event == null ? null : event.lastPush;
    }

    /** Whether the pre-sale draw ran (the queue holds its seed). */
    public boolean drawn(String eventId) {
        FakeQueueEvent event = events.get(eventId);
        return event != null && event.drawSeed != null;
    }

    /** The lane the visitor's entry stands in. */
    public String laneOf(String eventId, String visitor) {
        return known(eventId).entryOf(visitor).lane();
    }

    /**
     * Whether the route is one of the gateway's (the visitor routes it forwards, its join batches, the edge snapshot and
     * the liveness batches) rather than the coordinator's, as the queue-service's {@code waitroom.web.callers} says; its
     * own tests pick each call's credential by it.
     */
    public static boolean gatewaysRoute(String method, String path) {
        return !path.startsWith("/internal/")
                || (method.equals("GET") && path.endsWith("/snapshot"))
                || (method.equals("POST") && path.endsWith("/liveness"))
                || (method.equals("POST") && path.endsWith("/joins"));
    }

    // HTTP

    @Override
    protected StubReply answer(RecordedRequest request, String rawQuery) {
        String credential = request.header(Headers.INTERNAL).orElse(null);
        boolean asGateway = gatewayCredential.equals(credential);
        // a test may start the fake with one credential for both callers: it opens every route then
        boolean asCoordinator = coordinatorCredential.equals(credential);
        if (!asGateway && !asCoordinator) {
            return problem(ProblemType.INTERNAL_CREDENTIAL_REQUIRED);
        }
        if (gatewaysRoute(request.method(), request.path()) ? !asGateway : !asCoordinator) {
            return problem(ProblemType.CALLER_NOT_ALLOWED);
        }
        if (unavailable) {
            return problem(ProblemType.QUEUE_STORE_UNAVAILABLE);
        }
        return route(request, query(rawQuery));
    }

    private StubReply route(RecordedRequest request, Map<String, String> query) {
        String[] s = request.path().substring(1).split("/");
        try {
            if (s.length >= 3 && s[0].equals("internal") && s[1].equals("events")) {
                return internal(request, s, query);
            }
            if (s.length >= 3 && s[0].equals("events")) {
                return visitor(request, s);
            }
        } catch (MalformedValueException ex) {
            return problem(ex.problem());
        } catch (Refusal ex) {
            return problem(ex.problem);
        } catch (JacksonException ex) {
            return problem(ProblemType.MALFORMED_REQUEST);
        }
        return problem(ProblemType.NOT_FOUND);
    }

    /** The coordinator's and the gateway's calls under {@code /internal/events/{eventId}}. */
    private StubReply internal(RecordedRequest request, String[] s, Map<String, String> query) {
        String eventId = validEventId(s[2]);
        String method = request.method();
        String route = s.length == 3 ? "" : s[3];
        if (s.length == 3 && method.equals("PUT")) {
            return push(eventId, read(request, EventUpdateRequest.class).validated());
        }
        if (s.length == 3 && method.equals("DELETE")) {
            drop(eventId, Boolean.parseBoolean(query.get("ifEmpty")));
            return StubReply.json(204, null);
        }
        if (s.length == 4 && route.equals("joins") && method.equals("POST")) {
            return joins(request, eventId);
        }
        if (s.length == 4 && route.equals("liveness") && method.equals("POST")) {
            return StubReply.json(
                    200,
                    seen(events.get(eventId), read(request, LivenessBatch.class).validated()));
        }
        if (s.length == 4 && route.equals("snapshot") && method.equals("GET")) {
            return new StubReply(200, known(eventId).snapshot(), NO_STORE);
        }
        if (s.length == 4 && route.equals("offers") && method.equals("POST")) {
            if (failOffers) {
                return problem(ProblemType.QUEUE_STORE_UNAVAILABLE);
            }
            return StubReply.json(200, new OfferResults(offer(eventId, read(request, OfferBatch.class))));
        }
        if (s.length == 4 && route.equals("draw") && method.equals("POST")) {
            DrawRequest draw = read(request, DrawRequest.class);
            String seed = draw.seed() == null ? "" : draw.seed().toLowerCase(Locale.ROOT);
            if (!SEED.matcher(seed).matches()) {
                throw new MalformedValueException("seed is hex of 16..128 bytes");
            }
            return StubReply.json(200, known(eventId).draw(seed));
        }
        if (s.length == 4 && route.equals("candidates") && method.equals("GET")) {
            return candidates(eventId, query);
        }
        if (s.length == 4 && route.equals("lane") && method.equals("POST")) {
            LaneMove move = read(request, LaneMove.class);
            if (move.visitor() == null || !VisitorId.isValid(move.visitor()) || !LaneName.isValid(move.lane())) {
                throw new MalformedValueException("a visitor and a lane are required");
            }
            return StubReply.json(200, known(eventId).moveToLane(move.visitor(), move.lane()));
        }
        if (s.length == 6 && route.equals("entries") && s[5].equals("transition") && method.equals("POST")) {
            String entryId = new EntryId(s[4]).value();
            EntryTransition transition = read(request, EntryTransition.class);
            TransitionTarget to = transition.target();
            requireGrantId(transition.grantId());
            String state = known(eventId).transition(entryId, to, transition.grantId());
            return StubReply.json(200, new EntryTransitionResult(entryId, state));
        }
        if (s.length == 4 && route.equals("counts") && method.equals("GET")) {
            return StubReply.json(200, known(eventId).counts());
        }
        return problem(ProblemType.NOT_FOUND);
    }

    private StubReply push(String eventId, EventUpdateRequest update) {
        Instant gone = dropped.get(eventId);
        if (gone != null && Instant.now().isBefore(gone)) {
            throw new Refusal(ProblemType.PHASE_CONFLICT, "the event was dropped a moment ago");
        }
        while (true) {
            FakeQueueEvent event = events.computeIfAbsent(eventId, FakeQueueEvent::new);
            synchronized (event) {
                if (!event.dropped) {
                    return StubReply.json(200, event.update(update));
                }
            }
        }
    }

    /** Drops the event's state; with {@code onlyIfEmpty}, only if nobody has joined it. */
    private void drop(String eventId, boolean onlyIfEmpty) {
        FakeQueueEvent event = events.get(eventId);
        if (event != null) {
            synchronized (event) {
                if (onlyIfEmpty && event.sequence > 0) {
                    throw new Refusal(ProblemType.STATE_CONFLICT, event.sequence + " entries");
                }
                event.dropped = true;
                events.remove(eventId, event);
            }
        }
        dropped.put(eventId, Instant.now().plus(TOMBSTONE));
    }

    private List<dev.waitroom.contract.queue.OfferResult> offer(String eventId, OfferBatch batch) {
        List<Offer> offers = batch.offers();
        if (offers == null || offers.isEmpty() || offers.size() > MAX_BATCH) {
            throw new MalformedValueException("offers is a list of 1.." + MAX_BATCH + " items");
        }
        Set<String> once = new HashSet<>();
        for (Offer offer : offers) {
            if (offer == null || offer.expiresAt() == null || offer.entryId() == null || !once.add(offer.entryId())) {
                throw new MalformedValueException("each entry once, with grantId and expiresAt");
            }
            new EntryId(offer.entryId());
            requireGrantId(offer.grantId());
        }
        return known(eventId).offer(offers);
    }

    private StubReply candidates(String eventId, Map<String, String> query) {
        if (stallProbability > 0 && ThreadLocalRandom.current().nextDouble() < stallProbability) {
            LockSupport.parkNanos(stallNanos);
        }
        int limit;
        try {
            limit = Integer.parseInt(query.getOrDefault("limit", ""));
        } catch (NumberFormatException ex) {
            throw new MalformedValueException("limit is 1.." + MAX_BATCH);
        }
        if (limit < 1 || limit > MAX_BATCH) {
            throw new MalformedValueException("limit is 1.." + MAX_BATCH);
        }
        String lane = query.getOrDefault("lane", LaneName.GENERAL.value());
        return StubReply.json(200, new Candidates(known(eventId).candidates(lane, limit)));
    }

    /**
     * A gateway's batch of joins: each join answered as the same join forwarded alone is, in the batch's order (each
     * is also recorded as a {@code POST /events/{e}/queue} with the headers a forwarded join would have carried, so
     * tests read what reached the queue-service either way); the batch's size is counted on the event.
     */
    private StubReply joins(RecordedRequest request, String eventId) {
        JoinBatch batch = read(request, JoinBatch.class);
        if (batch.joins() == null || batch.joins().isEmpty() || batch.joins().contains(null)) {
            return problem(ProblemType.MALFORMED_REQUEST);
        }
        if (batch.joins().size() > JoinBatch.MAX_JOINS) {
            return problem(ProblemType.BODY_TOO_LARGE);
        }
        FakeQueueEvent event = events.get(eventId);
        if (event != null) {
            synchronized (event) {
                event.joinBatches.add(batch.joins().size());
            }
            CountDownLatch held = event.joinsHeld;
            if (held != null) {
                try {
                    held.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (event.joinsDropped) {
                return null;
            }
        }
        List<JoinResult> results = new ArrayList<>(batch.joins().size());
        String path = "/events/" + eventId + "/queue";
        for (JoinBatch.Join join : batch.joins()) {
            Map<String, List<String>> headers = new TreeMap<>();
            request.header(Headers.INTERNAL)
                    .ifPresent(v -> headers.put(Headers.INTERNAL.toLowerCase(Locale.ROOT), List.of(v)));
            headers.put("content-type", List.of("application/json"));
            put(headers, Headers.VISITOR, join.visitor());
            put(headers, Headers.ACCOUNT, join.account());
            put(headers, Headers.ACCOUNT_PROBLEM, join.accountProblem());
            RecordedRequest one = new RecordedRequest("POST", path, headers, join.body() == null ? "" : join.body());
            record(one);
            StubReply reply = route(one, Map.of());
            String retryAfter = reply.headers().get("Retry-After");
            results.add(new JoinResult(
                    reply.status(),
                    reply.headers().get(Headers.TICKET),
                    reply.headers().get(Headers.VISITOR),
                    retryAfter == null ? null : Long.valueOf(retryAfter),
                    JSON.writeValueAsString(reply.body())));
        }
        return StubReply.json(200, new JoinResults(results));
    }

    private static void put(Map<String, List<String>> headers, String name, String value) {
        if (value != null) {
            headers.put(name.toLowerCase(Locale.ROOT), List.of(value));
        }
    }

    /** The public routes the gateway forwards: {@code /events/{eventId}/status} and {@code .../queue[/status]}. */
    private StubReply visitor(RecordedRequest request, String[] s) {
        String eventId = validEventId(s[1]);
        boolean publicStatus =
                s.length == 3 && s[2].equals("status") && request.method().equals("GET");
        boolean queue = s[2].equals("queue") && (s.length == 3 || (s.length == 4 && s[3].equals("status")));
        if (publicStatus) {
            return new StubReply(200, known(eventId).publicStatus(), Map.of("Cache-Control", "max-age=1, public"));
        }
        if (!queue) {
            return problem(ProblemType.NOT_FOUND);
        }
        String visitor = request.header(Headers.VISITOR).orElse(null);
        if (visitor == null || visitor.isEmpty()) {
            return problem(ProblemType.VISITOR_REQUIRED);
        }
        if (!VisitorId.isValid(visitor)) {
            return problem(ProblemType.MALFORMED_REQUEST);
        }
        if (s.length == 3 && request.method().equals("POST")) {
            requireEmptyOrObject(request.body());
            Joined joined = joinEntry(eventId, visitor);
            if (joined.refused() != null) {
                return joined.refused();
            }
            if (joined.created()) {
                synchronized (joined.event()) {
                    joined.event().joinsCreated++;
                }
            }
            return withTicket(joined.created() ? 201 : 200, joined.event(), joined.entry());
        }
        FakeQueueEvent event = known(eventId);
        if (s.length == 4 && request.method().equals("GET")) {
            synchronized (event) {
                FakeQueueEntry entry = event.entryOf(visitor);
                if (entry == null) {
                    return problem(ProblemType.NOT_IN_QUEUE);
                }
                event.statusCalls++;
                return withTicket(200, event, entry);
            }
        }
        if (s.length == 3 && request.method().equals("DELETE")) {
            FakeQueueEntry entry = event.leave(visitor);
            return new StubReply(200, event.status(entry), NO_STORE);
        }
        return problem(ProblemType.METHOD_NOT_ALLOWED);
    }

    /** A join's outcome: the entry (new or kept), or the 503 of a refused join, which created nothing. */
    private record Joined(FakeQueueEvent event, FakeQueueEntry entry, boolean created, StubReply refused) {}

    private Joined joinEntry(String eventId, String visitor) {
        FakeQueueEvent event = known(eventId);
        synchronized (event) {
            if (event.dropped) {
                throw new Refusal(ProblemType.UNKNOWN_EVENT, eventId);
            }
            FakeQueueEntry existing = event.live(visitor);
            if (existing != null) {
                return new Joined(event, existing, false, null);
            }
            if (event.phase == EventPhase.ENDED) {
                throw new Refusal(ProblemType.EVENT_ENDED, eventId);
            }
            if (event.mode == OperatingMode.SOLD_OUT) {
                throw new Refusal(ProblemType.SOLD_OUT, eventId);
            }
            if (event.joinsToRefuse > 0) { // as the queue-service over its join ceiling: nothing created
                event.joinsToRefuse--;
                StubReply refused = problem(ProblemType.JOINS_THROTTLED);
                return new Joined(
                        event,
                        null,
                        false,
                        new StubReply(refused.status(), refused.body(), Map.of("Retry-After", "1")));
            }
            return new Joined(event, event.newEntry(visitor), true, null);
        }
    }

    /** A status answer; only a WAITING entry gets a fresh ticket. */
    private StubReply withTicket(int status, FakeQueueEvent event, FakeQueueEntry entry) {
        if (entry.state != State.WAITING) {
            return new StubReply(status, event.status(entry), NO_STORE);
        }
        String ticket =
                tickets.encode(new QueueTicket(event.id, entry.entryId(), Math.max(0, entry.orderKey), Instant.now()));
        return new StubReply(status, event.status(entry), Map.of(Headers.TICKET, ticket, "Cache-Control", "no-store"));
    }

    /** Last-seen for entries WAITING for the visitor named; the others are named in the answer. */
    private static LivenessResult seen(FakeQueueEvent event, LivenessBatch batch) {
        List<LivenessBatch.Seen> entries =
                batch.seen().stream().map(LivenessBatch.Seen::fromPair).toList();
        for (LivenessBatch.Seen seen : entries) {
            if (!isEntryId(seen.entryId()) || !VisitorId.isValid(seen.visitorId())) {
                throw new MalformedValueException("each seen item is [entryId, visitorId]");
            }
        }
        List<String> notWaiting = new ArrayList<>();
        if (event == null) {
            entries.forEach(seen -> notWaiting.add(seen.entryId()));
            return new LivenessResult(notWaiting);
        }
        synchronized (event) {
            event.livenessBatches++;
            for (LivenessBatch.Seen seen : entries) {
                FakeQueueEntry entry = event.byId.get(seen.entryId());
                if (entry != null && entry.state == State.WAITING && entry.visitor.equals(seen.visitorId())) {
                    entry.seen++;
                } else {
                    notWaiting.add(seen.entryId());
                }
            }
        }
        return new LivenessResult(notWaiting);
    }

    /** The event as stored; one never pushed (nor made by a test) is unknown. */
    private FakeQueueEvent known(String eventId) {
        FakeQueueEvent event = events.get(eventId);
        if (event == null || !event.stored) {
            throw new Refusal(ProblemType.UNKNOWN_EVENT, eventId);
        }
        return event;
    }

    private static <T> T read(RecordedRequest request, Class<T> type) {
        T value = JSON.readValue(request.body(), type);
        if (value == null) {
            throw new MalformedValueException("a body is required");
        }
        return value;
    }

    private static String validEventId(String value) {
        if (!EventId.isValid(value)) {
            throw new MalformedValueException(ProblemType.INVALID_EVENT_ID, "malformed event id");
        }
        return value;
    }

    private static boolean isEntryId(String value) {
        try {
            new EntryId(value);
            return true;
        } catch (MalformedValueException ex) {
            return false;
        }
    }

    private static void requireGrantId(String grantId) {
        if (grantId == null || !GRANT_ID.matcher(grantId).matches()) {
            throw new MalformedValueException("malformed grant id");
        }
    }

    private static void requireEmptyOrObject(String body) {
        if (body != null && !body.isBlank() && !JSON.readTree(body).isObject()) {
            throw new MalformedValueException("the join body, when present, is a JSON object");
        }
    }

    private static Map<String, String> query(String rawQuery) {
        Map<String, String> query = new HashMap<>();
        if (rawQuery == null || rawQuery.isEmpty()) {
            return query;
        }
        for (String pair : rawQuery.split("&")) {
            int eq = pair.indexOf('=');
            String name = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : pair.substring(eq + 1);
            query.putIfAbsent(
                    URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
        return query;
    }
}
