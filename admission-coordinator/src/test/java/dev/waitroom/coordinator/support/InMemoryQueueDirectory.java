package dev.waitroom.coordinator.support;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.tokens.VisitorId;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The queue service's internal API in memory (docs/reference/contracts.md, "queue-service internal API"), held to the real
 * service by {@code QueueDirectoryContractScenarios}, which runs against both: where they differ, this is wrong. Like
 * the real one: entry ids are the base-36 join sequence; order keys are that sequence after opening and 0 before it
 * until the draw orders the pre-sale group by HMAC-SHA256(seed, entryId) (or join order for FIFO) and keeps that seed;
 * with no pre-sale group nothing waits for a draw; a requeue takes the next sequence as its order key; the queue keeps
 * the last grant it offered an entry, and a transition names that grant. A refusal of the real service (a 4xx) is a
 * {@link QueueRejectedException}. On top, a test can make it unavailable, lose offer calls, or stall candidate calls (a
 * slow queue makes a leader stale mid-tick).
 */
public final class InMemoryQueueDirectory implements QueueDirectory {

    /** The queue-service's default {@code waitroom.queue.max-batch}: most candidates or offers per call. */
    static final int MAX_BATCH = 1000;

    private static final Pattern ENTRY_ID = Pattern.compile("[1-9a-z][0-9a-z]{0,9}");

    private static final Pattern SEED = Pattern.compile("([0-9a-f]{2}){16,128}");

    private static final Pattern GRANT_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    /** An entry's lifecycle, as the queue-service's {@code EntryState}: its transitions and nothing else. */
    public enum State {
        WAITING,
        OFFERED,
        ACTIVE,
        COMPLETED,
        EXPIRED,
        LEFT;

        /** OFFERED -> WAITING is the requeue of an expired offer or a withdrawn one; the last three are final. */
        public Set<State> next() {
            return switch (this) {
                case WAITING -> EnumSet.of(OFFERED, LEFT);
                case OFFERED -> EnumSet.of(ACTIVE, WAITING, EXPIRED);
                case ACTIVE -> EnumSet.of(COMPLETED, EXPIRED);
                case COMPLETED, EXPIRED, LEFT -> EnumSet.noneOf(State.class);
            };
        }

        public boolean canMoveTo(State target) {
            return next().contains(target);
        }
    }

    public static final class Entry {

        final String entryId;

        final long sequence;

        final String visitor;

        final long joinedAtSecond;

        long orderKey;

        State state = State.WAITING;

        /** The grant the queue last offered this entry; kept after the offer ends, as the real queue keeps it. */
        String grantId;

        /** That offer's deadline; a re-sent offer of the same grant moves it later, never earlier. */
        Instant offerExpiresAt;

        int requeues;

        /** The lane the entry stands in; "general" unless an access code moved it. */
        String lane = "general";

        Entry(long sequence, String visitor, long joinedAtSecond) {
            this.entryId = Long.toString(sequence, 36);
            this.sequence = sequence;
            this.visitor = visitor;
            this.joinedAtSecond = joinedAtSecond;
        }

        public State state() {
            return this.state;
        }

        public int requeues() {
            return this.requeues;
        }

        public String entryId() {
            return this.entryId;
        }

        public String visitor() {
            return this.visitor;
        }

        public long orderKey() {
            return this.orderKey;
        }

        public Instant offerExpiresAt() {
            return this.offerExpiresAt;
        }
    }

    private static final class EventQueue {

        final Map<String, Entry> byEntry = new LinkedHashMap<>();

        final Map<String, Entry> byVisitor = new HashMap<>();

        EventUpdateRequest state;

        long generation;

        /** Every entry made before the event left SCHEDULED; null while it is SCHEDULED. */
        Long presaleCount;

        /** The seed of the completed draw; null until then. */
        String drawSeed;

        long sequence;

        long offersExpired;

        long requeued;

        EventPhase phase() {
            return this.state.phaseValue();
        }

        /** Offers wait for the draw only when there is a pre-sale group to draw. */
        boolean drawComplete() {
            return phase() != EventPhase.SCHEDULED && (this.presaleCount == 0 || this.drawSeed != null);
        }
    }

    private final Map<String, EventQueue> events = new HashMap<>();

    /** Dropped events and until when a push of their state is refused (the queue-service's tombstone). */
    private final Map<String, java.time.Instant> dropped = new HashMap<>();

    private final Clock clock;

    private volatile boolean unavailable;

    private volatile boolean failOffers;

    private volatile double stallProbability;

    private volatile long stallNanos;

    public InMemoryQueueDirectory() {
        this(Clock.systemUTC());
    }

    /** @param clock the queue's own clock: when entries join, for the oldest wait in the counts */
    public InMemoryQueueDirectory(Clock clock) {
        this.clock = clock;
    }

    public void unavailable(boolean down) {
        this.unavailable = down;
    }

    /** Offer calls fail (a crash or outage between the Postgres commit and telling the queue). */
    public void failOffers(boolean fail) {
        this.failOffers = fail;
    }

    /** With this probability a candidates call parks for {@code nanos} (a slow network, a GC pause). */
    public void stallCandidates(double probability, long nanos) {
        this.stallProbability = probability;
        this.stallNanos = nanos;
    }

    /**
     * A visitor joins, as the gateway's join does; returns the entry id (the receipt). One entry per visitor: a visitor
     * with a place keeps it; one who left gets the old entry back before opening and a new one at the back after.
     * {@link IllegalStateException} where the real queue refuses: an event never pushed, a new place in an ENDED or
     * SOLD_OUT event.
     */
    public synchronized String join(String eventId, String visitor) {
        EventQueue q = this.events.get(eventId);
        if (q == null || q.state == null) {
            throw new IllegalStateException("unknown-event: " + eventId);
        }
        Entry existing = q.byVisitor.get(visitor);
        if (existing != null && existing.state != State.LEFT) {
            return existing.entryId;
        }
        if (existing != null && q.phase() == EventPhase.SCHEDULED) {
            existing.state = State.WAITING; // no second ticket for the draw
            return existing.entryId;
        }
        if (q.phase() == EventPhase.ENDED) {
            throw new IllegalStateException("event-ended: " + eventId);
        }
        if (q.state.modeValue() == OperatingMode.SOLD_OUT) {
            throw new IllegalStateException("sold-out: " + eventId);
        }
        Entry entry = new Entry(++q.sequence, visitor, this.clock.instant().getEpochSecond());
        entry.orderKey = q.phase() == EventPhase.SCHEDULED ? 0 : entry.sequence;
        q.byEntry.put(entry.entryId, entry);
        q.byVisitor.put(visitor, entry);
        return entry.entryId;
    }

    /**
     * The visitor leaves the queue (WAITING -> LEFT; again is a no-op). {@link IllegalStateException} where the real
     * queue refuses: an event never pushed, a visitor without a place, an entry no longer waiting.
     */
    public synchronized void leave(String eventId, String visitor) {
        EventQueue q = this.events.get(eventId);
        if (q == null || q.state == null) {
            throw new IllegalStateException("unknown-event: " + eventId);
        }
        Entry e = q.byVisitor.get(visitor);
        if (e == null) {
            throw new IllegalStateException("not-in-queue");
        }
        if (e.state == State.WAITING) {
            e.state = State.LEFT;
        } else if (e.state != State.LEFT) {
            throw new IllegalStateException("state-conflict: the entry is " + e.state);
        }
    }

    public synchronized Entry entry(String eventId, String visitor) {
        return queue(eventId).byVisitor.get(visitor);
    }

    /** WAITING entries never offered before (requeued ones go to the back on purpose). */
    public synchronized List<Entry> waitingFirstTime(String eventId) {
        return queue(eventId).byEntry.values().stream()
                .filter(e -> e.state == State.WAITING && e.requeues == 0)
                .toList();
    }

    public synchronized EventUpdateRequest lastState(String eventId) {
        return queue(eventId).state;
    }

    /** Whether the pre-sale draw ran (the queue holds its seed). */
    public synchronized boolean drawn(String eventId) {
        return queue(eventId).drawSeed != null;
    }

    @Override
    public synchronized void putEventState(EventId event, EventUpdateRequest state) {
        String eventId = event.value();
        check();
        try {
            state.validated();
        } catch (MalformedValueException ex) {
            throw refused("malformed-request", ex.getMessage());
        }
        java.time.Instant gone = this.dropped.get(eventId);
        if (gone != null && this.clock.instant().isBefore(gone)) {
            throw refused("phase-conflict", "the event was dropped a moment ago");
        }
        EventQueue q = queue(eventId);
        EventPhase next = state.phaseValue();
        long generation = state.saleGeneration() == null ? 0 : state.saleGeneration();
        if (q.state != null) {
            // a repeated push is idempotent, a phase never goes back, an older sale generation is stale
            if (q.phase() != next && !q.phase().canMoveTo(next)) {
                throw refused("phase-conflict", q.phase() + " -> " + next);
            }
            if (generation < q.generation) {
                throw refused("stale-generation", generation + " < " + q.generation);
            }
        }
        if (next != EventPhase.SCHEDULED && q.presaleCount == null) {
            q.presaleCount = q.sequence; // the pre-sale group closes
        }
        q.state = state;
        q.generation = generation;
    }

    @Override
    public synchronized void dropEvent(EventId event, boolean onlyIfEmpty) {
        String eventId = event.value();
        check();
        EventQueue q = this.events.get(eventId);
        if (q != null && onlyIfEmpty && q.sequence > 0) {
            throw refused("state-conflict", q.sequence + " entries");
        }
        this.events.remove(eventId);
        this.dropped.put(eventId, this.clock.instant().plus(java.time.Duration.ofMinutes(2)));
    }

    /** Whether the queue holds any state of the event (it was pushed and not dropped). */
    public synchronized boolean knows(String eventId) {
        EventQueue q = this.events.get(eventId);
        return q != null && q.state != null;
    }

    @Override
    public synchronized DrawResult draw(EventId event, String seedHex) {
        String eventId = event.value();
        check();
        String seed = seedHex == null ? "" : seedHex.toLowerCase(Locale.ROOT);
        if (!SEED.matcher(seed).matches()) {
            throw refused("malformed-request", "seed is hex of 16..128 bytes");
        }
        EventQueue q = known(eventId);
        if (q.phase() == EventPhase.SCHEDULED) {
            throw refused("draw-not-allowed", "the event is still SCHEDULED");
        }
        long presale = q.presaleCount;
        if (q.drawSeed != null) {
            if (!q.drawSeed.equals(seed)) {
                throw refused("seed-mismatch", "the draw was made with another seed");
            }
            return new DrawResult(presale, true);
        }
        byte[] seedBytes = HexFormat.of().parseHex(seed);
        String commitment = q.state.commitment();
        // the coordinator's commitment (the real queue also takes SHA-256 of the seed's hex text, which nobody sends)
        if (commitment != null
                && !commitment.isEmpty()
                && !commitment.equalsIgnoreCase(EventManagement.commitment(seed))) {
            throw refused("seed-mismatch", "the seed does not match the published commitment");
        }
        List<Entry> group = new ArrayList<>(
                q.byEntry.values().stream().filter(e -> e.sequence <= presale).toList());
        if (q.state.presaleOrderingValue() == PresaleOrdering.FIFO) {
            group.sort(Comparator.comparingLong(e -> e.sequence));
        } else {
            Map<Entry, byte[]> macs = new HashMap<>();
            group.forEach(e -> macs.put(e, hmac(seedBytes, e.entryId)));
            group.sort(Comparator.<Entry, byte[]>comparing(macs::get, Arrays::compareUnsigned)
                    .thenComparingLong(e -> e.sequence));
        }
        for (int i = 0; i < group.size(); i++) {
            group.get(i).orderKey = i + 1;
        }
        q.drawSeed = seed;
        return new DrawResult(presale, true);
    }

    @Override
    public List<Candidate> candidates(EventId event, int limit) {
        String eventId = event.value();
        check();
        if (this.stallProbability > 0 && ThreadLocalRandom.current().nextDouble() < this.stallProbability) {
            LockSupport.parkNanos(this.stallNanos);
        }
        if (limit < 1 || limit > MAX_BATCH) {
            throw refused("malformed-request", "limit is 1.." + MAX_BATCH);
        }
        synchronized (this) {
            EventQueue q = known(eventId);
            if (!q.drawComplete()) {
                return List.of();
            }
            return waitingInOrder(q)
                    .filter(e -> e.lane.equals("general"))
                    .limit(limit)
                    .map(e -> new Candidate(e.entryId, new VisitorId(e.visitor), e.orderKey))
                    .toList();
        }
    }

    @Override
    public List<Candidate> candidates(EventId event, String lane, int limit) {
        String eventId = event.value();
        check();
        if (limit < 1 || limit > MAX_BATCH) {
            throw refused("malformed-request", "limit is 1.." + MAX_BATCH);
        }
        synchronized (this) {
            EventQueue q = known(eventId);
            if (!q.drawComplete()) {
                return List.of();
            }
            return waitingInOrder(q)
                    .filter(e -> e.lane.equals(lane))
                    .limit(limit)
                    .map(e -> new Candidate(e.entryId, new VisitorId(e.visitor), e.orderKey))
                    .toList();
        }
    }

    @Override
    public synchronized LaneMoveResult moveToLane(EventId event, VisitorId visitor, String account, String lane) {
        String eventId = event.value();
        check();
        EventQueue q = known(eventId);
        Entry e = q.byVisitor.get(visitor.value());
        if (e == null) {
            throw new CoordinatorException(ProblemType.NOT_IN_QUEUE, "Join the queue first (test).");
        }
        if (e.state != State.WAITING) {
            throw new CoordinatorException(ProblemType.STATE_CONFLICT, "Only a waiting place can move (test).");
        }
        boolean moved = !e.lane.equals(lane);
        e.lane = lane;
        return new LaneMoveResult(e.entryId, e.state.name(), lane, moved);
    }

    /** The lane the visitor's entry stands in. */
    public synchronized String laneOf(String eventId, String visitor) {
        return known(eventId).byVisitor.get(visitor).lane;
    }

    @Override
    public synchronized List<OfferResult> offer(EventId event, List<Offer> offers) {
        String eventId = event.value();
        check();
        if (this.failOffers) {
            throw new QueueUnavailableException("offer call lost (test)", null);
        }
        if (offers.isEmpty() || offers.size() > MAX_BATCH) {
            throw refused("malformed-request", "offers is a list of 1.." + MAX_BATCH + " items");
        }
        Set<String> seen = new HashSet<>();
        for (Offer offer : offers) {
            requireEntryId(offer.entryId());
            requireGrantId(offer.grantId());
            if (offer.expiresAt() == null || !seen.add(offer.entryId())) {
                throw refused("malformed-request", "each entry once, with grantId and expiresAt");
            }
        }
        EventQueue q = known(eventId);
        if (!q.drawComplete()) {
            throw refused("draw-incomplete", "no offer before the pre-sale draw completes");
        }
        List<OfferResult> results = new ArrayList<>();
        for (Offer offer : offers) {
            String grant = offer.grantId().toString();
            Entry e = q.byEntry.get(offer.entryId());
            if (e == null) {
                results.add(new OfferResult(offer.entryId(), null, false));
            } else if (e.state == State.WAITING) {
                e.state = State.OFFERED;
                e.grantId = grant;
                e.offerExpiresAt = offer.expiresAt();
                results.add(new OfferResult(e.entryId, e.state.name(), true));
            } else {
                if (e.state == State.OFFERED
                        && grant.equals(e.grantId)
                        && offer.expiresAt().isAfter(e.offerExpiresAt)) {
                    e.offerExpiresAt = offer.expiresAt();
                }
                results.add(new OfferResult(e.entryId, e.state.name(), grant.equals(e.grantId)));
            }
        }
        return results;
    }

    @Override
    public synchronized String transition(EventId event, String entryId, TransitionTarget to, GrantId grantId) {
        String eventId = event.value();
        check();
        requireEntryId(entryId);
        requireGrantId(grantId);
        EventQueue q = known(eventId);
        Entry e = q.byEntry.get(entryId);
        if (e == null) {
            throw refused("unknown-entry", entryId);
        }
        if (!grantId.toString().equals(e.grantId)) {
            throw refused("grant-mismatch", "the entry is " + e.state + " and not held by this grant");
        }
        if (to == TransitionTarget.OFFER_EXPIRED) {
            return offerExpired(q, e);
        }
        if (to == TransitionTarget.OFFER_WITHDRAWN) {
            return offerWithdrawn(e);
        }
        State target = State.valueOf(to.name());
        if (e.state != target) {
            if (!e.state.canMoveTo(target)) {
                throw refused("state-conflict", "the entry is " + e.state + " and cannot become " + target);
            }
            e.state = target;
        }
        return e.state.name();
    }

    /** A withdrawn offer (the event sold out): WAITING again under the same order key, no requeue spent. */
    private static String offerWithdrawn(Entry e) {
        if (e.state == State.OFFERED) {
            e.state = State.WAITING;
        } else if (e.state != State.WAITING) {
            throw refused("state-conflict", "the entry is " + e.state + " and cannot become OFFER_WITHDRAWN");
        }
        return e.state.name();
    }

    /** The event's expired-offer policy: back of the queue once (a fresh order key), else EXPIRED. */
    private static String offerExpired(EventQueue q, Entry e) {
        if (e.state == State.OFFERED) {
            q.offersExpired++;
            String policy = q.state.expiredOfferPolicy();
            if ((policy == null || ExpiredOfferPolicy.parse(policy) == ExpiredOfferPolicy.REQUEUE_ONCE)
                    && e.requeues == 0) {
                e.requeues++;
                e.orderKey = ++q.sequence;
                e.state = State.WAITING;
                q.requeued++;
            } else {
                e.state = State.EXPIRED;
            }
            return e.state.name();
        }
        if ((e.state == State.WAITING && e.requeues > 0) || e.state == State.EXPIRED) {
            return e.state.name(); // a repeat
        }
        throw refused("state-conflict", "the entry is " + e.state + " and cannot become OFFER_EXPIRED");
    }

    @Override
    public synchronized QueueCounts counts(EventId event) {
        String eventId = event.value();
        check();
        EventQueue q = known(eventId);
        Map<State, Long> n = new EnumMap<>(State.class);
        for (Entry e : q.byEntry.values()) {
            n.merge(e.state, 1L, Long::sum);
        }
        // the front of the queue: the lowest order key waiting (pre-sale entries have none until the draw)
        long oldest = waitingInOrder(q)
                .filter(e -> e.orderKey > 0)
                .findFirst()
                .map(e -> Math.max(0, this.clock.instant().getEpochSecond() - e.joinedAtSecond))
                .orElse(0L);
        long left = n.getOrDefault(State.LEFT, 0L);
        return new QueueCounts(
                n.getOrDefault(State.WAITING, 0L),
                n.getOrDefault(State.OFFERED, 0L),
                n.getOrDefault(State.ACTIVE, 0L),
                n.getOrDefault(State.COMPLETED, 0L),
                left,
                n.getOrDefault(State.EXPIRED, 0L),
                q.byEntry.size(),
                oldest,
                left + q.offersExpired,
                q.offersExpired,
                q.requeued);
    }

    private static Stream<Entry> waitingInOrder(EventQueue q) {
        return q.byEntry.values().stream()
                .filter(e -> e.state == State.WAITING)
                .sorted(Comparator.comparingLong(e -> e.orderKey));
    }

    private void check() {
        if (this.unavailable) {
            throw new QueueUnavailableException("queue down (test)", null);
        }
    }

    private EventQueue queue(String eventId) {
        return this.events.computeIfAbsent(eventId, k -> new EventQueue());
    }

    /** The event as pushed; one never pushed is unknown (404 from the real queue). */
    private EventQueue known(String eventId) {
        EventQueue q = this.events.get(eventId);
        if (q == null || q.state == null) {
            throw refused("unknown-event", eventId);
        }
        return q;
    }

    private static void requireEntryId(String entryId) {
        if (entryId == null || !ENTRY_ID.matcher(entryId).matches()) {
            throw refused("malformed-request", "malformed entry id");
        }
    }

    private static void requireGrantId(GrantId grantId) {
        if (grantId == null || !GRANT_ID.matcher(grantId.toString()).matches()) {
            throw refused("malformed-request", "malformed grant id");
        }
    }

    /** How the real queue's 4xx problems reach the coordinator. */
    private static QueueRejectedException refused(String problem, String detail) {
        return new QueueRejectedException(problem + ": " + detail, null);
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException | InvalidKeyException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
