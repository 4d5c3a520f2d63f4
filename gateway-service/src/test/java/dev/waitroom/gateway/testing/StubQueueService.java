package dev.waitroom.gateway.testing;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.queue.EventStateView;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.contract.queue.JoinResults;
import dev.waitroom.contract.queue.LivenessBatch;
import dev.waitroom.contract.queue.LivenessResult;
import dev.waitroom.contract.queue.Offer;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.OfferResults;
import dev.waitroom.contract.queue.PublicEventStatus;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import tools.jackson.core.JacksonException;

/**
 * The queue-service as far as the gateway sees it (docs/reference/contracts.md), over an in-memory model per event: join,
 * status, leave, public status, the edge snapshot and liveness batches, plus the coordinator's event push
 * ({@code PUT /internal/events/{e}}) and offers, so it can be driven over HTTP exactly like the real service.
 * Bodies are the contract's records; real queue tickets are issued with the shared ticket key. A visitor whose place is
 * spent (EXPIRED, or COMPLETED unless afterPurchase is KEEP) joins anew at the back with a new receipt (issue 17); the
 * public status carries the event's name, published policy, sale generation and sold-out seat categories.
 * {@code QueueContractScenarios} holds it against the real queue-service: a difference is a bug here.
 *
 * <p>Tests may also shape the model directly ({@link #event}, {@link QueueEvent}): an event made that way starts
 * open and queueing, its pre-sale draw an hour ago, and may be moved anywhere (even back). Deliberately simpler than
 * the real service: {@code pollAfterSeconds} is always 2 (pages under test poll quickly), and there is no draw
 * ({@code POST .../draw}), candidates, transitions or counts, which the gateway never calls.
 */
public final class StubQueueService extends StubHttpServer {

    static final int BUCKET_SIZE = 10;

    /** The commitment of the events tests make directly (the pre-sale page shows it). */
    static final String COMMITMENT = "3f1c0e8a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e";

    private static final Pattern ENTRY_ID = Pattern.compile("[1-9a-z][0-9a-z]{0,9}");

    private static final Pattern GRANT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private static final Map<String, String> NO_STORE = Map.of("Cache-Control", "no-store");

    private final QueueTicketCodec tickets;

    private final Map<String, QueueEvent> events = new ConcurrentHashMap<>();

    private volatile boolean unavailable;

    StubQueueService(String internalToken, QueueTicketCodec tickets) {
        super(internalToken);
        this.tickets = tickets;
    }

    /** The event's model, created open and queueing (its pre-sale draw an hour ago) on first use. */
    public QueueEvent event(String eventId) {
        return events.computeIfAbsent(eventId, QueueEvent::drawnAnHourAgo);
    }

    /** While set, every request is answered 503, as a queue-service without its Redis would. */
    public void unavailable(boolean unavailable) {
        this.unavailable = unavailable;
    }

    public String ticketFor(QueueTicket ticket) {
        return tickets.encode(ticket);
    }

    @Override
    protected Reply handle(Recorded request) {
        if (unavailable) {
            return problem(ProblemType.QUEUE_STORE_UNAVAILABLE);
        }
        String[] s = segments(request.path());
        try {
            if (s.length >= 3 && s[0].equals("internal") && s[1].equals("events")) {
                return internal(request, s);
            }
            if (s.length >= 3 && s[0].equals("events")) {
                return visitor(request, s);
            }
        } catch (MalformedValueException ex) {
            return problem(ex.problem());
        } catch (JacksonException ex) {
            return problem(ProblemType.MALFORMED_REQUEST);
        }
        return problem(ProblemType.NOT_FOUND);
    }

    /** The coordinator's and the gateway's calls under {@code /internal/events/{eventId}}. */
    private Reply internal(Recorded request, String[] s) {
        String eventId = validEventId(s[2]);
        String method = request.method();
        if (s.length == 3 && method.equals("PUT")) {
            EventUpdateRequest update =
                    JSON.readValue(request.body(), EventUpdateRequest.class).validated();
            QueueEvent event = events.computeIfAbsent(eventId, QueueEvent::new);
            return event.update(update);
        }
        if (s.length == 4 && s[3].equals("joins") && method.equals("POST")) {
            return joins(request, eventId);
        }
        if (s.length == 4 && s[3].equals("liveness") && method.equals("POST")) {
            LivenessBatch batch =
                    JSON.readValue(request.body(), LivenessBatch.class).validated();
            return Reply.json(200, seen(events.get(eventId), batch));
        }
        QueueEvent event = events.get(eventId);
        if (s.length == 4 && s[3].equals("snapshot") && method.equals("GET")) {
            return event == null ? problem(ProblemType.UNKNOWN_EVENT) : new Reply(200, event.snapshot(), NO_STORE);
        }
        if (s.length == 4 && s[3].equals("offers") && method.equals("POST")) {
            OfferBatch batch = JSON.readValue(request.body(), OfferBatch.class);
            return event == null ? problem(ProblemType.UNKNOWN_EVENT) : event.offer(batch);
        }
        return problem(ProblemType.NOT_FOUND);
    }

    /**
     * A gateway's batch of joins: each join answered as the same join forwarded alone is, in the batch's order (each
     * is also recorded as a {@code POST /events/{e}/queue} with the headers a forwarded join would have carried, so
     * tests read what reached the queue-service either way); the batch's size is counted on the event.
     */
    private Reply joins(Recorded request, String eventId) {
        JoinBatch batch = JSON.readValue(request.body(), JoinBatch.class);
        if (batch.joins() == null || batch.joins().isEmpty() || batch.joins().contains(null)) {
            return problem(ProblemType.MALFORMED_REQUEST);
        }
        if (batch.joins().size() > JoinBatch.MAX_JOINS) {
            return problem(ProblemType.BODY_TOO_LARGE);
        }
        QueueEvent event = events.get(eventId);
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
            request.header(Headers.INTERNAL).ifPresent(v -> headers.put(Headers.INTERNAL.toLowerCase(), List.of(v)));
            headers.put("content-type", List.of("application/json"));
            put(headers, Headers.VISITOR, join.visitor());
            put(headers, Headers.ACCOUNT, join.account());
            put(headers, Headers.ACCOUNT_PROBLEM, join.accountProblem());
            Recorded one = new Recorded("POST", path, headers, join.body() == null ? "" : join.body());
            record(one);
            Reply reply;
            try {
                reply = visitor(one, segments(path));
            } catch (MalformedValueException ex) {
                reply = problem(ex.problem());
            } catch (JacksonException ex) {
                reply = problem(ProblemType.MALFORMED_REQUEST);
            }
            String retryAfter = reply.headers().get("Retry-After");
            results.add(new JoinResult(
                    reply.status(),
                    reply.headers().get(Headers.TICKET),
                    reply.headers().get(Headers.VISITOR),
                    retryAfter == null ? null : Long.valueOf(retryAfter),
                    JSON.writeValueAsString(reply.body())));
        }
        return Reply.json(200, new JoinResults(results));
    }

    private static void put(Map<String, List<String>> headers, String name, String value) {
        if (value != null) {
            headers.put(name.toLowerCase(), List.of(value));
        }
    }

    /** The public routes the gateway forwards: {@code /events/{eventId}/status} and {@code .../queue[/status]}. */
    private Reply visitor(Recorded request, String[] s) {
        String eventId = validEventId(s[1]);
        QueueEvent event = events.get(eventId);
        boolean publicStatus =
                s.length == 3 && s[2].equals("status") && request.method().equals("GET");
        boolean queue = s[2].equals("queue") && (s.length == 3 || (s.length == 4 && s[3].equals("status")));
        if (!publicStatus && !queue) {
            return problem(ProblemType.NOT_FOUND);
        }
        if (publicStatus) {
            return event == null
                    ? problem(ProblemType.UNKNOWN_EVENT)
                    : new Reply(200, event.publicStatus(), Map.of("Cache-Control", "max-age=1, public"));
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
            if (event == null) {
                return problem(ProblemType.UNKNOWN_EVENT);
            }
            synchronized (event) {
                Entry existing = event.live(visitor);
                if (existing != null) {
                    return withTicket(200, event, existing);
                }
                if (event.phase == EventPhase.ENDED) {
                    return problem(ProblemType.EVENT_ENDED);
                }
                if (event.mode == OperatingMode.SOLD_OUT) {
                    return problem(ProblemType.SOLD_OUT);
                }
                if (event.joinsToRefuse > 0) { // as the queue-service over its join ceiling: nothing created
                    event.joinsToRefuse--;
                    Reply refused = problem(ProblemType.JOINS_THROTTLED);
                    return new Reply(refused.status(), refused.body(), Map.of("Retry-After", "1"));
                }
                event.joinsForwarded++;
                return withTicket(201, event, event.join(visitor));
            }
        }
        if (event == null) {
            return problem(ProblemType.UNKNOWN_EVENT);
        }
        if (s.length == 4 && request.method().equals("GET")) {
            synchronized (event) {
                Entry entry = event.entries.get(visitor);
                if (entry == null) {
                    return problem(ProblemType.NOT_IN_QUEUE);
                }
                event.statusCalls++;
                return withTicket(200, event, entry);
            }
        }
        if (s.length == 3 && request.method().equals("DELETE")) {
            synchronized (event) {
                Entry entry = event.entries.get(visitor);
                if (entry == null) {
                    return problem(ProblemType.NOT_IN_QUEUE);
                }
                if (entry.state.equals("WAITING")) {
                    entry.state = "LEFT";
                } else if (!entry.state.equals("LEFT")) {
                    return problem(ProblemType.STATE_CONFLICT);
                }
                return new Reply(200, event.status(entry), NO_STORE);
            }
        }
        return problem(ProblemType.METHOD_NOT_ALLOWED);
    }

    private static String validEventId(String value) {
        if (!EventId.isValid(value)) {
            throw new MalformedValueException(ProblemType.INVALID_EVENT_ID, "malformed event id");
        }
        return value;
    }

    private static void requireEmptyOrObject(String body) {
        if (body != null && !body.isBlank() && !JSON.readTree(body).isObject()) {
            throw new MalformedValueException("the join body, when present, is a JSON object");
        }
    }

    /** A status answer; only a WAITING entry gets a fresh ticket. */
    private Reply withTicket(int status, QueueEvent event, Entry entry) {
        if (!entry.state.equals("WAITING")) {
            return new Reply(status, event.status(entry), NO_STORE);
        }
        String ticket =
                tickets.encode(new QueueTicket(event.id, entry.entryId, Math.max(0, entry.orderKey), Instant.now()));
        return new Reply(status, event.status(entry), Map.of(Headers.TICKET, ticket, "Cache-Control", "no-store"));
    }

    /** Last-seen for entries WAITING for the visitor named; the others are named in the answer. */
    private static LivenessResult seen(QueueEvent event, LivenessBatch batch) {
        List<LivenessBatch.Seen> entries =
                batch.seen().stream().map(LivenessBatch.Seen::fromPair).toList();
        for (LivenessBatch.Seen seen : entries) {
            if (!ENTRY_ID.matcher(seen.entryId()).matches() || !VisitorId.isValid(seen.visitorId())) {
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
                Entry entry = event.byId.get(seen.entryId());
                if (entry != null && entry.state.equals("WAITING") && entry.visitor.equals(seen.visitorId())) {
                    entry.seen++;
                } else {
                    notWaiting.add(seen.entryId());
                }
            }
        }
        return new LivenessResult(notWaiting);
    }

    /** One queue entry of the model. */
    public static final class Entry {

        final String visitor;

        final String entryId;

        final long orderKey;

        volatile String state = "WAITING";

        volatile Instant offerExpiresAt;

        volatile String grantId;

        volatile int seen;

        Entry(String visitor, long sequence, long orderKey) {
            this.visitor = visitor;
            this.entryId = Long.toString(sequence, 36);
            this.orderKey = orderKey;
        }

        public String entryId() {
            return entryId;
        }

        public String state() {
            return state;
        }

        public long orderKey() {
            return orderKey;
        }

        /** How often a liveness batch recorded this entry. */
        public int seen() {
            return seen;
        }

        public void leave() {
            state = "LEFT";
        }

        /** As the coordinator's expiry would (DROP, or a second missed offer): the place has ended. */
        public void expire() {
            state = "EXPIRED";
        }

        /** As the sell-out's withdrawal would (queue transition OFFER_WITHDRAWN): WAITING again, in the same place. */
        public void withdrawOffer() {
            state = "WAITING";
            grantId = null;
            offerExpiresAt = null;
        }

        /** As a purchase completing would. */
        public void complete() {
            state = "COMPLETED";
        }
    }

    /** One event of the model; all methods lock the event. */
    public static final class QueueEvent {

        final String id;

        volatile EventPhase phase = EventPhase.OPEN;

        volatile OperatingMode mode = OperatingMode.QUEUEING;

        /** The coordinator's signed statement of the mode, opaque, as the queue-service keeps it; null when none. */
        volatile String modeStatement;

        volatile String announcement;

        volatile dev.waitroom.contract.queue.AdmissionHold admissionHold;

        volatile long saleGeneration = 1;

        volatile double admissionRatePerSecond = 2.0;

        volatile String commitment;

        volatile String seed;

        /** The seed a completed draw used: public once the draw completed. */
        volatile String drawSeed;

        volatile Instant drawCompletedAt;

        /** The entries created before the event left SCHEDULED; null until then. */
        volatile Long presaleCount;

        volatile long offerWatermark;

        volatile Instant opensAt;

        volatile IdentityScope identityScope = IdentityScope.DEFAULT;

        volatile ExpiredOfferPolicy expiredOfferPolicy = ExpiredOfferPolicy.DEFAULT;

        volatile PresaleOrdering presaleOrdering = PresaleOrdering.DEFAULT;

        volatile AfterPurchase afterPurchase = AfterPurchase.DEFAULT;

        /** The event's name as the coordinator pushed it; null shows the id. */
        volatile String name;

        /** The seat categories booking reported sold out. */
        volatile List<String> soldOutCategories = List.of();

        volatile long offerTtlSeconds;

        volatile int statusCalls;

        volatile int livenessBatches;

        /** The event's join ceiling and proof-of-work difficulty, as the coordinator pushed it or a test set it. */
        volatile JoinGate joinGate = JoinGate.OPEN;

        /** The next joins that would create an entry are refused 503 joins-throttled (Retry-After: 1) while above 0. */
        volatile int joinsToRefuse;

        /** Joins that created an entry. */
        volatile int joinsForwarded;

        /** The size of each batch of joins a gateway sent, in the order they came. */
        final List<Integer> joinBatches = new ArrayList<>();

        /** While set, a batch of joins waits for it before it is answered (or dropped). */
        volatile CountDownLatch joinsHeld;

        /** While set, a batch of joins is answered by closing the connection, as a queue-service that stopped. */
        volatile boolean joinsDropped;

        /** The visitor's latest entry. */
        final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

        final Map<String, Entry> byId = new LinkedHashMap<>();

        private long nextSequence = 1;

        /** Whether the event has a stored state (pushed, or made by a test); the push guards only then. */
        private boolean stored;

        /** Before the coordinator's first push: nothing stored, drawn or offered. */
        QueueEvent(String id) {
            this.id = id;
        }

        static QueueEvent drawnAnHourAgo(String id) {
            QueueEvent event = new QueueEvent(id);
            event.stored = true;
            event.commitment = COMMITMENT;
            event.drawSeed = "5eed";
            event.drawCompletedAt = Instant.now().minus(Duration.ofHours(1));
            event.presaleCount = 0L;
            return event;
        }

        public synchronized QueueEvent mode(String mode) {
            this.mode = OperatingMode.valueOf(mode);
            return this;
        }

        /** Sets the mode and the statement of it the snapshot carries (as a push with {@code modeStatement} would). */
        public synchronized QueueEvent mode(String mode, String statement) {
            this.mode = OperatingMode.valueOf(mode);
            this.modeStatement = statement;
            return this;
        }

        /** Sets the phase as it is, without the guard of the coordinator's push (a test may go back). */
        public synchronized QueueEvent phase(String phase) {
            this.phase = EventPhase.valueOf(phase);
            return this;
        }

        /** Sets why offers are held back, as a push with {@code admissionHold} would (null: they are not). */
        public synchronized QueueEvent admissionHold(dev.waitroom.contract.queue.AdmissionHold hold) {
            this.admissionHold = hold;
            return this;
        }

        public synchronized QueueEvent announcement(String text) {
            this.announcement = text;
            return this;
        }

        public synchronized QueueEvent saleGeneration(long generation) {
            this.saleGeneration = generation;
            return this;
        }

        public synchronized QueueEvent admissionRate(double perSecond) {
            this.admissionRatePerSecond = perSecond;
            return this;
        }

        public synchronized QueueEvent drawCompletedAt(Instant at) {
            this.drawCompletedAt = at;
            return this;
        }

        public synchronized QueueEvent opensAt(Instant at) {
            this.opensAt = at;
            return this;
        }

        public synchronized QueueEvent name(String name) {
            this.name = name;
            return this;
        }

        /** The event's published rules, as the coordinator pushes them. */
        public synchronized QueueEvent policy(
                PresaleOrdering presaleOrdering,
                ExpiredOfferPolicy expiredOfferPolicy,
                AfterPurchase afterPurchase,
                IdentityScope identityScope) {
            this.presaleOrdering = presaleOrdering;
            this.expiredOfferPolicy = expiredOfferPolicy;
            this.afterPurchase = afterPurchase;
            this.identityScope = identityScope;
            return this;
        }

        public synchronized QueueEvent soldOutCategories(List<String> categories) {
            this.soldOutCategories = List.copyOf(categories);
            return this;
        }

        public synchronized QueueEvent joinGate(JoinGate gate) {
            this.joinGate = gate;
            return this;
        }

        /** The next {@code count} joins that would create an entry answer 503 joins-throttled instead. */
        public synchronized QueueEvent refuseJoins(int count) {
            this.joinsToRefuse = count;
            return this;
        }

        /** Batches of joins wait until the latch is released (null: answered at once). */
        public QueueEvent holdJoins(CountDownLatch until) {
            this.joinsHeld = until;
            return this;
        }

        /** Batches of joins get the connection closed without an answer while {@code dropped}. */
        public QueueEvent dropJoins(boolean dropped) {
            this.joinsDropped = dropped;
            return this;
        }

        /** The size of each batch of joins a gateway sent for this event, in the order they came. */
        public synchronized List<Integer> joinBatches() {
            return List.copyOf(joinBatches);
        }

        /** Joins that created an entry (not counting {@link #addWaiting}). */
        public synchronized int joinsCreated() {
            return joinsForwarded;
        }

        public synchronized int statusCalls() {
            return statusCalls;
        }

        public synchronized int livenessBatches() {
            return livenessBatches;
        }

        /** Adds {@code count} anonymous waiting visitors at the back. */
        public synchronized QueueEvent addWaiting(int count) {
            for (int i = 0; i < count; i++) {
                join("bulk-" + UUID.randomUUID());
            }
            return this;
        }

        /**
         * The coordinator's push: the phase never goes back, nor the sale generation; leaving SCHEDULED freezes the
         * pre-sale group (every entry created so far). Missing values clear what was stored.
         */
        synchronized Reply update(EventUpdateRequest update) {
            EventPhase next = update.phaseValue();
            String pushedName = TextFields.optional("name", update.name(), EventUpdateRequest.MAX_NAME);
            long generation = update.saleGeneration() == null ? 0 : update.saleGeneration();
            if (stored && next != phase && !phase.canMoveTo(next)) {
                return problem(ProblemType.PHASE_CONFLICT);
            }
            if (stored && generation < saleGeneration) {
                return problem(ProblemType.STALE_GENERATION);
            }
            if (next != EventPhase.SCHEDULED && presaleCount == null) {
                presaleCount = nextSequence - 1;
            }
            stored = true;
            phase = next;
            saleGeneration = generation;
            mode = update.modeValue();
            modeStatement = emptyToNull(update.modeStatement());
            announcement = emptyToNull(update.announcement());
            commitment = hex(update.commitment());
            seed = hex(update.seed());
            identityScope = update.identityScopeValue();
            expiredOfferPolicy = update.expiredOfferPolicyValue();
            presaleOrdering = update.presaleOrderingValue();
            admissionRatePerSecond = update.admissionRatePerSecond() == null ? 0 : update.admissionRatePerSecond();
            offerTtlSeconds = update.offerTtlSeconds() == null ? 0 : update.offerTtlSeconds();
            opensAt = update.opensAt();
            joinGate = update.joinGateValue();
            name = pushedName;
            afterPurchase = update.afterPurchaseValue();
            soldOutCategories =
                    update.soldOutCategoriesValue().stream().distinct().toList();
            return Reply.json(200, view());
        }

        private static String emptyToNull(String value) {
            return value == null || value.isEmpty() ? null : value;
        }

        private static String hex(String value) {
            return value == null || value.isEmpty() ? null : value.toLowerCase(Locale.ROOT);
        }

        /**
         * The visitor's entry unless its place has ended: a visitor who left (except before opening), whose offer
         * expired, or who bought under afterPurchase RELEASE joins anew at the back (issue 17); the old entry stays.
         */
        synchronized Entry live(String visitor) {
            Entry existing = entries.get(visitor);
            if (existing == null) {
                return null;
            }
            if (existing.state.equals("EXPIRED")
                    || (existing.state.equals("COMPLETED") && afterPurchase == AfterPurchase.RELEASE)) {
                return null;
            }
            if (!existing.state.equals("LEFT")) {
                return existing;
            }
            if (phase == EventPhase.SCHEDULED) {
                existing.state = "WAITING"; // a pre-sale rejoin gets its old entry back: no second ticket for the draw
                return existing;
            }
            return null;
        }

        /** A new entry at the back; before opening it has no order key yet (the draw gives it one). */
        synchronized Entry join(String visitor) {
            long sequence = nextSequence++;
            Entry entry = new Entry(visitor, sequence, phase == EventPhase.SCHEDULED ? 0 : sequence);
            entries.put(visitor, entry);
            byId.put(entry.entryId, entry);
            return entry;
        }

        public synchronized Entry entryOf(String visitor) {
            return entries.get(visitor);
        }

        /** The entry with this receipt, current or ended (an ended entry is kept when its visitor joins anew). */
        public synchronized Entry entryById(String entryId) {
            return byId.get(entryId);
        }

        /** Offers the next {@code count} waiting entries in order (the coordinator's tick). */
        public synchronized List<Entry> offerNext(int count) {
            List<Entry> offered = new ArrayList<>();
            String grant = UUID.randomUUID().toString();
            for (Entry entry : waitingInOrder()) {
                if (offered.size() == count) {
                    break;
                }
                offer(entry, grant, Instant.now().plusSeconds(60));
                offered.add(entry);
            }
            return offered;
        }

        private void offer(Entry entry, String grant, Instant expiresAt) {
            entry.state = "OFFERED";
            entry.grantId = grant;
            entry.offerExpiresAt = expiresAt;
            offerWatermark = Math.max(offerWatermark, entry.orderKey);
        }

        /** The coordinator's offers: WAITING -> OFFERED; an entry already held by that grant is unchanged. */
        synchronized Reply offer(OfferBatch batch) {
            if (batch.offers() == null || batch.offers().isEmpty()) {
                return problem(ProblemType.MALFORMED_REQUEST);
            }
            Set<String> once = new HashSet<>();
            for (Offer offer : batch.offers()) {
                if (offer == null
                        || offer.expiresAt() == null
                        || offer.entryId() == null
                        || !ENTRY_ID.matcher(offer.entryId()).matches()
                        || !once.add(offer.entryId())
                        || offer.grantId() == null
                        || !GRANT_ID.matcher(offer.grantId()).matches()) {
                    return problem(ProblemType.MALFORMED_REQUEST);
                }
            }
            if (!drawComplete()) {
                return problem(ProblemType.DRAW_INCOMPLETE);
            }
            List<OfferResult> results = new ArrayList<>();
            for (Offer offer : batch.offers()) {
                Entry entry = byId.get(offer.entryId());
                if (entry == null) {
                    results.add(new OfferResult(offer.entryId(), null, false));
                } else if (entry.state.equals("WAITING")) {
                    offer(entry, offer.grantId(), offer.expiresAt());
                    results.add(new OfferResult(entry.entryId, entry.state, true));
                } else {
                    boolean held = offer.grantId().equals(entry.grantId);
                    if (held
                            && entry.state.equals("OFFERED")
                            && entry.offerExpiresAt != null
                            && offer.expiresAt().isAfter(entry.offerExpiresAt)) {
                        // a re-sent offer (a pause extended it) moves the deadline later, never earlier
                        entry.offerExpiresAt = offer.expiresAt();
                    }
                    results.add(new OfferResult(entry.entryId, entry.state, held));
                }
            }
            return Reply.json(200, new OfferResults(results));
        }

        /** The exact number of WAITING entries ahead of this one. */
        public synchronized long exactlyAhead(Entry entry) {
            return byId.values().stream()
                    .filter(e -> e.state.equals("WAITING") && e.orderKey > 0 && e.orderKey < entry.orderKey)
                    .count();
        }

        /** True once offers may be made: the event is open and any pre-sale group has been drawn. */
        synchronized boolean drawComplete() {
            return phase != EventPhase.SCHEDULED && drawn();
        }

        private boolean drawn() {
            return presaleCount == null || presaleCount == 0 || drawCompletedAt != null;
        }

        private List<Entry> waitingInOrder() {
            return byId.values().stream()
                    .filter(e -> e.state.equals("WAITING") && e.orderKey > 0)
                    .sorted(Comparator.comparingLong(e -> e.orderKey))
                    .toList();
        }

        private long waiting() {
            return byId.values().stream().filter(e -> e.state.equals("WAITING")).count();
        }

        synchronized QueueStatus status(Entry entry) {
            // a position is known once the pre-sale group is drawn (or there was none)
            boolean known = entry.state.equals("WAITING") && entry.orderKey > 0 && drawComplete();
            QueueStatus.Position position = known ? QueueStatus.Position.around(exactlyAhead(entry)) : null;
            QueueStatus.EstimatedWait estimate = position != null && mode == OperatingMode.QUEUEING
                    ? QueueStatus.EstimatedWait.of(position, admissionRatePerSecond)
                    : null;
            // sold out, an offer made before cannot be claimed: none is shown
            QueueStatus.Offer offer =
                    entry.state.equals("OFFERED") && entry.offerExpiresAt != null && mode != OperatingMode.SOLD_OUT
                            ? new QueueStatus.Offer(entry.offerExpiresAt)
                            : null;
            return new QueueStatus(
                    entry.state,
                    phase,
                    mode,
                    position,
                    estimate,
                    offer,
                    2,
                    announcement,
                    entry.entryId,
                    admissionHold,
                    null);
        }

        synchronized PublicEventStatus publicStatus() {
            QueueStatus.Position length = QueueStatus.Position.around(waiting());
            return new PublicEventStatus(
                    id,
                    phase,
                    mode,
                    announcement,
                    admissionRatePerSecond,
                    new PublicEventStatus.QueueLength(length.aheadMin(), length.aheadMax()),
                    commitment,
                    revealedSeed(),
                    drawCompletedAt,
                    presaleCount,
                    opensAt,
                    name,
                    new PublicEventStatus.Policy(presaleOrdering, expiredOfferPolicy, afterPurchase, identityScope),
                    saleGeneration > 0 ? saleGeneration : null, // a push naming no generation: the first round
                    soldOutCategories);
        }

        private String revealedSeed() {
            if (seed != null) {
                return seed;
            }
            return drawCompletedAt != null ? drawSeed : null;
        }

        synchronized QueueSnapshot snapshot() {
            List<WaitingBucket> buckets = new ArrayList<>();
            long inBucket = 0;
            long maxKey = 0;
            for (Entry entry : waitingInOrder()) {
                inBucket++;
                maxKey = entry.orderKey;
                if (inBucket == BUCKET_SIZE) {
                    buckets.add(new WaitingBucket(maxKey, inBucket));
                    inBucket = 0;
                }
            }
            if (inBucket > 0) {
                buckets.add(new WaitingBucket(maxKey, inBucket));
            }
            return new QueueSnapshot(
                    id,
                    phase,
                    mode,
                    announcement,
                    saleGeneration,
                    admissionRatePerSecond,
                    offerWatermark,
                    drawCompletedAt,
                    drawComplete(),
                    presaleCount,
                    waiting(),
                    buckets,
                    Instant.now(),
                    joinGate,
                    soldOutCategories,
                    null,
                    modeStatement,
                    admissionHold);
        }

        synchronized EventStateView view() {
            return new EventStateView(
                    id,
                    phase,
                    mode,
                    announcement,
                    saleGeneration,
                    commitment,
                    revealedSeed(),
                    identityScope,
                    expiredOfferPolicy,
                    presaleOrdering,
                    admissionRatePerSecond,
                    offerTtlSeconds,
                    opensAt,
                    presaleCount,
                    drawCompletedAt,
                    offerWatermark,
                    waiting(),
                    joinGate,
                    name,
                    afterPurchase,
                    soldOutCategories,
                    null);
        }
    }
}
