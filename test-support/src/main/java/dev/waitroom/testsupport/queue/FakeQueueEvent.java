package dev.waitroom.testsupport.queue;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.Candidate;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EventStateView;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.Offer;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.contract.queue.PublicEventStatus;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.testsupport.queue.FakeQueueEntry.State;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * One event of {@link FakeQueueService}: its pushed state and its entries, every method under the event's lock. The
 * coordinator's push ({@code PUT /internal/events/{e}}) makes one; a test may also make one directly
 * ({@link FakeQueueService#event}), which starts open and queueing, its pre-sale draw an hour ago, and shape it here
 * anywhere (even back), without the push's guards.
 */
public final class FakeQueueEvent {

    /** WAITING entries per bucket of the edge snapshot. */
    static final int BUCKET_SIZE = 10;

    /** The commitment of the events tests make directly (the pre-sale page shows it). */
    static final String COMMITMENT = "3f1c0e8a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e";

    final String id;

    /** The coordinator's last push as it was received; null for an event a test made. */
    volatile EventUpdateRequest lastPush;

    volatile EventPhase phase = EventPhase.OPEN;

    volatile OperatingMode mode = OperatingMode.QUEUEING;

    /** The coordinator's signed statement of the mode, opaque, as the queue-service keeps it; null when none. */
    volatile String modeStatement;

    volatile String announcement;

    volatile AdmissionHold admissionHold;

    volatile Pace pace;

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

    volatile String name;

    volatile List<String> soldOutCategories = List.of();

    volatile long offerTtlSeconds;

    volatile JoinGate joinGate = JoinGate.OPEN;

    volatile int statusCalls;

    volatile int livenessBatches;

    /** The next joins that would create an entry are refused 503 joins-throttled (Retry-After: 1) while above 0. */
    volatile int joinsToRefuse;

    /** Joins that created an entry over HTTP. */
    volatile int joinsCreated;

    /** The size of each batch of joins a gateway sent, in the order they came. */
    final List<Integer> joinBatches = new ArrayList<>();

    /** While set, a batch of joins waits for it before it is answered (or dropped). */
    volatile CountDownLatch joinsHeld;

    /** While set, a batch of joins is answered by closing the connection, as a queue-service that stopped. */
    volatile boolean joinsDropped;

    /** Set under the lock when the event is dropped: a join that waited for the lock finds no event. */
    boolean dropped;

    /** The visitor's latest entry. */
    final Map<String, FakeQueueEntry> byVisitor = new HashMap<>();

    final Map<String, FakeQueueEntry> byId = new LinkedHashMap<>();

    /** The last sequence taken: by a join (the entry id) or a requeue (its order key). */
    long sequence;

    long offersExpired;

    long requeued;

    /** Whether the event has a stored state (pushed, or made by a test); the push guards only then. */
    boolean stored;

    FakeQueueEvent(String id) {
        this.id = id;
    }

    static FakeQueueEvent drawnAnHourAgo(String id) {
        FakeQueueEvent event = new FakeQueueEvent(id);
        event.stored = true;
        event.commitment = COMMITMENT;
        event.drawSeed = "5eed";
        event.drawCompletedAt = Instant.now().minus(Duration.ofHours(1));
        event.presaleCount = 0L;
        return event;
    }

    // a test's shaping

    public synchronized FakeQueueEvent mode(String mode) {
        this.mode = OperatingMode.valueOf(mode);
        return this;
    }

    /** Sets the mode and the statement of it the snapshot carries (as a push with {@code modeStatement} would). */
    public synchronized FakeQueueEvent mode(String mode, String statement) {
        this.mode = OperatingMode.valueOf(mode);
        this.modeStatement = statement;
        return this;
    }

    /** Sets the phase as it is, without the guard of the coordinator's push (a test may go back). */
    public synchronized FakeQueueEvent phase(String phase) {
        this.phase = EventPhase.valueOf(phase);
        return this;
    }

    /** Sets why offers are held back, as a push with {@code admissionHold} would (null: they are not). */
    public synchronized FakeQueueEvent admissionHold(AdmissionHold hold) {
        this.admissionHold = hold;
        return this;
    }

    public synchronized FakeQueueEvent announcement(String text) {
        this.announcement = text;
        return this;
    }

    public synchronized FakeQueueEvent saleGeneration(long generation) {
        this.saleGeneration = generation;
        return this;
    }

    public long saleGeneration() {
        return saleGeneration;
    }

    public synchronized FakeQueueEvent admissionRate(double perSecond) {
        this.admissionRatePerSecond = perSecond;
        return this;
    }

    public synchronized FakeQueueEvent drawCompletedAt(Instant at) {
        this.drawCompletedAt = at;
        return this;
    }

    public synchronized FakeQueueEvent opensAt(Instant at) {
        this.opensAt = at;
        return this;
    }

    public synchronized FakeQueueEvent name(String name) {
        this.name = name;
        return this;
    }

    /** The event's published rules, as the coordinator pushes them. */
    public synchronized FakeQueueEvent policy(
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

    public synchronized FakeQueueEvent soldOutCategories(List<String> categories) {
        this.soldOutCategories = List.copyOf(categories);
        return this;
    }

    public synchronized FakeQueueEvent joinGate(JoinGate gate) {
        this.joinGate = gate;
        return this;
    }

    /** The next {@code count} joins that would create an entry answer 503 joins-throttled instead. */
    public synchronized FakeQueueEvent refuseJoins(int count) {
        this.joinsToRefuse = count;
        return this;
    }

    /** Batches of joins wait until the latch is released (null: answered at once). */
    public FakeQueueEvent holdJoins(CountDownLatch until) {
        this.joinsHeld = until;
        return this;
    }

    /** Batches of joins get the connection closed without an answer while {@code dropped}. */
    public FakeQueueEvent dropJoins(boolean dropped) {
        this.joinsDropped = dropped;
        return this;
    }

    /** The size of each batch of joins a gateway sent for this event, in the order they came. */
    public synchronized List<Integer> joinBatches() {
        return List.copyOf(joinBatches);
    }

    /** Joins over HTTP that created an entry (not counting {@link #addWaiting}). */
    public synchronized int joinsCreated() {
        return joinsCreated;
    }

    public synchronized int statusCalls() {
        return statusCalls;
    }

    public synchronized int livenessBatches() {
        return livenessBatches;
    }

    /** Adds {@code count} anonymous waiting visitors at the back. */
    public synchronized FakeQueueEvent addWaiting(int count) {
        for (int i = 0; i < count; i++) {
            newEntry("bulk-" + UUID.randomUUID());
        }
        return this;
    }

    public synchronized FakeQueueEntry entryOf(String visitor) {
        return byVisitor.get(visitor);
    }

    /** The entry with this receipt, current or ended (an ended entry is kept when its visitor joins anew). */
    public synchronized FakeQueueEntry entryById(String entryId) {
        return byId.get(entryId);
    }

    /** Offers the next {@code count} waiting entries in order, under one new grant (the coordinator's tick). */
    public synchronized List<FakeQueueEntry> offerNext(int count) {
        String grant = UUID.randomUUID().toString();
        List<FakeQueueEntry> offered = waitingInOrder().limit(count).toList();
        offered.forEach(entry -> offer(entry, grant, Instant.now().plusSeconds(60)));
        return offered;
    }

    /** The exact number of WAITING entries ahead of this one in its lane. */
    public synchronized long exactlyAhead(FakeQueueEntry entry) {
        return waitingInOrder()
                .filter(e -> e.lane.equals(entry.lane) && e.orderKey < entry.orderKey)
                .count();
    }

    /** WAITING entries never offered before (requeued ones go to the back on purpose). */
    public synchronized List<FakeQueueEntry> waitingFirstTime() {
        return byId.values().stream()
                .filter(e -> e.state == State.WAITING && e.requeues == 0)
                .toList();
    }

    // the coordinator's calls

    /**
     * The coordinator's push: the phase never goes back, nor the sale generation; leaving SCHEDULED freezes the
     * pre-sale group (every entry created so far). Missing values clear what was stored.
     */
    synchronized EventStateView update(EventUpdateRequest update) {
        EventPhase next = update.phaseValue();
        String pushedName = TextFields.optional("name", update.name(), EventUpdateRequest.MAX_NAME);
        long generation = update.saleGeneration() == null ? 0 : update.saleGeneration();
        if (stored && next != phase && !phase.canMoveTo(next)) {
            throw new Refusal(ProblemType.PHASE_CONFLICT, phase + " -> " + next);
        }
        if (stored && generation < saleGeneration) {
            throw new Refusal(ProblemType.STALE_GENERATION, generation + " < " + saleGeneration);
        }
        if (next != EventPhase.SCHEDULED && presaleCount == null) {
            presaleCount = sequence;
        }
        stored = true;
        lastPush = update;
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
        admissionRatePerSecond = update.admissionRatePerSecondValue();
        offerTtlSeconds = update.offerTtlSecondsValue();
        opensAt = update.opensAt();
        joinGate = update.joinGateValue();
        name = pushedName;
        afterPurchase = update.afterPurchaseValue();
        soldOutCategories = update.soldOutCategoriesValue().stream().distinct().toList();
        pace = update.pace();
        admissionHold = update.admissionHold();
        return view();
    }

    /**
     * Orders the pre-sale group by HMAC-SHA256(seed, entry id) (join order for FIFO) once and for all; a repeat with
     * the same seed answers the same. The seed must match the published commitment.
     */
    synchronized DrawResult draw(String seedHex) {
        if (phase == EventPhase.SCHEDULED) {
            throw new Refusal(ProblemType.DRAW_NOT_ALLOWED, "the event is still SCHEDULED");
        }
        long presale = presaleCount == null ? 0 : presaleCount;
        if (drawSeed != null) {
            if (!drawSeed.equals(seedHex)) {
                throw new Refusal(ProblemType.SEED_MISMATCH, "the draw was made with another seed");
            }
            return new DrawResult(presale, true);
        }
        byte[] seedBytes = HexFormat.of().parseHex(seedHex);
        if (commitment != null
                && !commitment.equals(HexFormat.of().formatHex(sha256(seedBytes)))
                && !commitment.equals(HexFormat.of().formatHex(sha256(seedHex.getBytes(StandardCharsets.UTF_8))))) {
            throw new Refusal(ProblemType.SEED_MISMATCH, "the seed does not match the published commitment");
        }
        List<FakeQueueEntry> group = new ArrayList<>(
                byId.values().stream().filter(e -> e.sequence <= presale).toList());
        if (presaleOrdering == PresaleOrdering.FIFO) {
            group.sort(Comparator.comparingLong(e -> e.sequence));
        } else {
            Map<FakeQueueEntry, byte[]> macs = new HashMap<>();
            group.forEach(e -> macs.put(e, hmac(seedBytes, e.entryId())));
            group.sort(Comparator.<FakeQueueEntry, byte[]>comparing(macs::get, Arrays::compareUnsigned)
                    .thenComparingLong(e -> e.sequence));
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).orderKey = i + 1;
        }
        drawSeed = seedHex;
        if (presale > 0) {
            drawCompletedAt = Instant.now();
        }
        return new DrawResult(presale, true);
    }

    /** The next WAITING entries of one lane in policy order; none before the draw completes. */
    synchronized List<Candidate> candidates(String lane, int limit) {
        if (!drawComplete()) {
            return List.of();
        }
        return waitingInOrder()
                .filter(e -> e.lane.equals(lane))
                .limit(limit)
                .map(e -> new Candidate(e.entryId(), e.visitor, e.orderKey))
                .toList();
    }

    /** Places the visitor's waiting entry in {@code lane}, keeping its order key. */
    synchronized LaneMoveResult moveToLane(String visitor, String lane) {
        FakeQueueEntry e = byVisitor.get(visitor);
        if (e == null) {
            throw new Refusal(ProblemType.NOT_IN_QUEUE, "no place to move");
        }
        if (e.state != State.WAITING) {
            throw new Refusal(ProblemType.STATE_CONFLICT, "the entry is " + e.state);
        }
        boolean moved = !e.lane.equals(lane);
        e.lane = lane;
        return new LaneMoveResult(e.entryId(), e.state.name(), lane, moved);
    }

    /** The coordinator's offers: WAITING -> OFFERED; an entry already held by that grant is unchanged. */
    synchronized List<OfferResult> offer(List<Offer> offers) {
        if (!drawComplete()) {
            throw new Refusal(ProblemType.DRAW_INCOMPLETE, "no offer before the pre-sale draw completes");
        }
        List<OfferResult> results = new ArrayList<>();
        for (Offer offer : offers) {
            FakeQueueEntry entry = byId.get(offer.entryId());
            if (entry == null) {
                results.add(new OfferResult(offer.entryId(), null, false));
            } else if (entry.state == State.WAITING) {
                offer(entry, offer.grantId(), offer.expiresAt());
                results.add(new OfferResult(entry.entryId(), entry.state.name(), true));
            } else {
                boolean held = offer.grantId().equals(entry.grantId);
                if (held
                        && entry.state == State.OFFERED
                        && entry.offerExpiresAt != null
                        && offer.expiresAt().isAfter(entry.offerExpiresAt)) {
                    // a re-sent offer (a pause extended it) moves the deadline later, never earlier
                    entry.offerExpiresAt = offer.expiresAt();
                }
                results.add(new OfferResult(entry.entryId(), entry.state.name(), held));
            }
        }
        return results;
    }

    private void offer(FakeQueueEntry entry, String grant, Instant expiresAt) {
        entry.state = State.OFFERED;
        entry.grantId = grant;
        entry.offerExpiresAt = expiresAt;
        offerWatermark = Math.max(offerWatermark, entry.orderKey);
    }

    /** Moves one entry held by {@code grantId}; a repeat answers the same and changes nothing. */
    synchronized String transition(String entryId, TransitionTarget to, String grantId) {
        FakeQueueEntry e = byId.get(entryId);
        if (e == null) {
            throw new Refusal(ProblemType.UNKNOWN_ENTRY, entryId);
        }
        if (!grantId.equals(e.grantId)) {
            throw new Refusal(ProblemType.GRANT_MISMATCH, "the entry is " + e.state + " and not held by this grant");
        }
        if (to == TransitionTarget.OFFER_EXPIRED) {
            return offerExpired(e);
        }
        if (to == TransitionTarget.OFFER_WITHDRAWN) {
            return offerWithdrawn(e);
        }
        State target = State.valueOf(to.name());
        if (e.state != target) {
            if (!e.state.canMoveTo(target)) {
                throw new Refusal(ProblemType.STATE_CONFLICT, "the entry is " + e.state + ", not " + target);
            }
            e.state = target;
        }
        return e.state.name();
    }

    /** A withdrawn offer (the event sold out): WAITING again under the same order key, no requeue spent. */
    private static String offerWithdrawn(FakeQueueEntry e) {
        if (e.state == State.OFFERED) {
            e.state = State.WAITING;
        } else if (e.state != State.WAITING) {
            throw new Refusal(ProblemType.STATE_CONFLICT, "the entry is " + e.state + ", not OFFER_WITHDRAWN");
        }
        return e.state.name();
    }

    /** The event's expired-offer policy: back of the queue once (a fresh order key), else EXPIRED. */
    private String offerExpired(FakeQueueEntry e) {
        if (e.state == State.OFFERED) {
            offersExpired++;
            if (expiredOfferPolicy == ExpiredOfferPolicy.REQUEUE_ONCE && e.requeues == 0) {
                e.requeues++;
                e.orderKey = ++sequence;
                e.state = State.WAITING;
                requeued++;
            } else {
                e.state = State.EXPIRED;
            }
            return e.state.name();
        }
        if ((e.state == State.WAITING && e.requeues > 0) || e.state == State.EXPIRED) {
            return e.state.name(); // a repeat
        }
        throw new Refusal(ProblemType.STATE_CONFLICT, "the entry is " + e.state + ", not OFFER_EXPIRED");
    }

    synchronized QueueCounts counts() {
        Map<State, Long> n = new EnumMap<>(State.class);
        for (FakeQueueEntry e : byId.values()) {
            n.merge(e.state, 1L, Long::sum);
        }
        // the front of the queue: the lowest order key waiting (pre-sale entries have none until the draw)
        long oldest = waitingInOrder()
                .findFirst()
                .map(e ->
                        Math.max(0, Duration.between(e.joinedAt, Instant.now()).toSeconds()))
                .orElse(0L);
        long left = n.getOrDefault(State.LEFT, 0L);
        return new QueueCounts(
                n.getOrDefault(State.WAITING, 0L),
                n.getOrDefault(State.OFFERED, 0L),
                n.getOrDefault(State.ACTIVE, 0L),
                n.getOrDefault(State.COMPLETED, 0L),
                left,
                n.getOrDefault(State.EXPIRED, 0L),
                byId.size(),
                oldest,
                left + offersExpired,
                offersExpired,
                requeued);
    }

    // the visitor's calls

    /**
     * The visitor's entry unless its place has ended: a visitor who left (except before opening), whose offer
     * expired, or who bought under afterPurchase RELEASE joins anew at the back (issue 17); the old entry stays.
     */
    FakeQueueEntry live(String visitor) {
        FakeQueueEntry existing = byVisitor.get(visitor);
        if (existing == null) {
            return null;
        }
        if (existing.state == State.EXPIRED
                || (existing.state == State.COMPLETED && afterPurchase == AfterPurchase.RELEASE)) {
            return null;
        }
        if (existing.state != State.LEFT) {
            return existing;
        }
        if (phase == EventPhase.SCHEDULED) {
            existing.state = State.WAITING; // a pre-sale rejoin gets its old entry back: no second ticket for the draw
            return existing;
        }
        return null;
    }

    /** A new entry at the back; before opening it has no order key yet (the draw gives it one). */
    FakeQueueEntry newEntry(String visitor) {
        long next = ++sequence;
        FakeQueueEntry entry =
                new FakeQueueEntry(visitor, next, phase == EventPhase.SCHEDULED ? 0 : next, Instant.now());
        byVisitor.put(visitor, entry);
        byId.put(entry.entryId(), entry);
        return entry;
    }

    /** WAITING -> LEFT; leaving again changes nothing. */
    synchronized FakeQueueEntry leave(String visitor) {
        FakeQueueEntry entry = byVisitor.get(visitor);
        if (entry == null) {
            throw new Refusal(ProblemType.NOT_IN_QUEUE, "no place to leave");
        }
        if (entry.state == State.WAITING) {
            entry.state = State.LEFT;
        } else if (entry.state != State.LEFT) {
            throw new Refusal(ProblemType.STATE_CONFLICT, "the entry is " + entry.state);
        }
        return entry;
    }

    /** True once offers may be made: the event is open and any pre-sale group has been drawn. */
    synchronized boolean drawComplete() {
        return phase != EventPhase.SCHEDULED
                && (presaleCount == null || presaleCount == 0 || drawCompletedAt != null || drawSeed != null);
    }

    private Stream<FakeQueueEntry> waitingInOrder() {
        return byId.values().stream()
                .filter(e -> e.state == State.WAITING && e.orderKey > 0)
                .sorted(Comparator.comparingLong(e -> e.orderKey));
    }

    private long waiting() {
        return byId.values().stream().filter(e -> e.state == State.WAITING).count();
    }

    synchronized QueueStatus status(FakeQueueEntry entry) {
        // a position is known once the pre-sale group is drawn (or there was none)
        boolean known = entry.state == State.WAITING && entry.orderKey > 0 && drawComplete();
        QueueStatus.Position position = known ? QueueStatus.Position.around(exactlyAhead(entry)) : null;
        QueueStatus.EstimatedWait estimate = position != null && mode == OperatingMode.QUEUEING
                ? QueueStatus.EstimatedWait.of(position, admissionRatePerSecond, pace)
                : null;
        // sold out, an offer made before cannot be claimed: none is shown
        QueueStatus.Offer offer =
                entry.state == State.OFFERED && entry.offerExpiresAt != null && mode != OperatingMode.SOLD_OUT
                        ? new QueueStatus.Offer(entry.offerExpiresAt)
                        : null;
        // pages under test poll quickly
        return new QueueStatus(
                entry.state.name(),
                phase,
                mode,
                position,
                estimate,
                offer,
                2,
                announcement,
                entry.entryId(),
                admissionHold,
                entry.lane);
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
        for (FakeQueueEntry entry : waitingInOrder().toList()) {
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
                pace,
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
                pace);
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    private static String hex(String value) {
        return value == null || value.isEmpty() ? null : value.toLowerCase(Locale.ROOT);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
