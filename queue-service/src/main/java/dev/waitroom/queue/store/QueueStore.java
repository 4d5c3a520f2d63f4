package dev.waitroom.queue.store;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.domain.Candidate;
import dev.waitroom.queue.domain.Counts;
import dev.waitroom.queue.domain.DrawResult;
import dev.waitroom.queue.domain.EntryId;
import dev.waitroom.queue.domain.EntryState;
import dev.waitroom.queue.domain.EventId;
import dev.waitroom.queue.domain.EventState;
import dev.waitroom.queue.domain.EventUpdate;
import dev.waitroom.queue.domain.ExpiredOfferPolicy;
import dev.waitroom.queue.domain.IdentityScope;
import dev.waitroom.queue.domain.JoinOutcome;
import dev.waitroom.queue.domain.Mode;
import dev.waitroom.queue.domain.OfferRequest;
import dev.waitroom.queue.domain.OfferResult;
import dev.waitroom.queue.domain.Phase;
import dev.waitroom.queue.domain.PresaleOrdering;
import dev.waitroom.queue.domain.Problem;
import dev.waitroom.queue.domain.QueueProblem;
import dev.waitroom.queue.domain.Snapshot;
import dev.waitroom.queue.domain.TransitionTarget;
import dev.waitroom.queue.domain.Visitor;
import dev.waitroom.queue.domain.VisitorStatus;
import dev.waitroom.queue.domain.WaitingBucket;
import dev.waitroom.queue.store.QueueScripts.Script;
import dev.waitroom.tokens.VisitorId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.redisson.api.RedissonClient;
import org.springframework.stereotype.Component;

/**
 * The queue in Redis. Every change is one Lua script, so it is atomic and nothing is ever half-written.
 *
 * <p>Layout per event (every key starts with {@code wr:{eventId}:}, one cluster slot):
 * {@code ev} event hash; {@code seq} the sequence that numbers entries and order keys; {@code cnt} counters;
 * {@code w} bitmap of WAITING order keys; {@code id:<0..2047>} identity -> entry sequence;
 * {@code e:<seq/128>} entry records; {@code o:<key/128>} order key -> entry sequence;
 * {@code s:<seq/128>} last seen (apart from order); {@code of} grant and deadline of offered entries.
 * The small bucketed hashes stay in Redis's compact encoding, which keeps a waiting visitor near 100 bytes.
 *
 * <p>Every script is given each key it touches in KEYS, as Redis Cluster requires. Which buckets a call touches can
 * follow from data in Redis (the entry an identity holds, the next sequence, the front of the queue); the store
 * declares the buckets it expects from hints, and a script that would touch another answers which, having changed
 * nothing, and is called again declaring them (scripts/lib/declared_keys.lua). Hints only save that second call.
 */
@Component
public class QueueStore {

    static final int IDENTITY_BUCKETS = 2048;
    private static final int BUCKET = 128;
    private static final int DECLARE_ATTEMPTS = 8;
    private static final Pattern BUCKET_NAME = Pattern.compile("([eso]):(\\d+)");

    private final QueueScripts scripts;
    private final Clock clock;
    /** Event prefix + visitor id -> the entry sequence last seen for it: the buckets a status call will need. */
    private final Cache<String, Long> entryHints;
    /** Event prefix -> the highest entry sequence seen: the buckets the next join will need. */
    private final Cache<String, Long> sequenceHints = Caffeine.newBuilder().maximumSize(10_000).build();

    public QueueStore(RedissonClient redisson, Clock clock, QueueProperties properties) {
        this.scripts = new QueueScripts(redisson, properties.redisReplicaAcks(), properties.redisReplicaAckTimeout());
        this.clock = clock;
        this.entryHints = Caffeine.newBuilder().maximumSize(properties.entryHints()).build();
    }

    /**
     * Runs an event script, declaring again whatever keys it answers were missing (each time also the next bucket of
     * a sequence-numbered one, which concurrent joins may reach before the call comes back).
     */
    private List<String> call(Script script, EventId event, List<String> keys, Object... args) {
        List<Object> declared = new ArrayList<>(keys);
        for (int attempt = 1; ; attempt++) {
            List<String> r = scripts.run(script, eventKey(event), declared, args);
            if (r.isEmpty() || !r.get(0).equals("KEYS")) {
                return r;
            }
            if (attempt == DECLARE_ATTEMPTS) {
                throw new IllegalStateException(script + " still names undeclared keys " + r.subList(1, r.size()));
            }
            for (String name : r.subList(1, r.size())) {
                declared.add(event.keyPrefix() + name);
                Matcher bucket = BUCKET_NAME.matcher(name);
                if (bucket.matches() && (script == Script.JOIN || script == Script.TRANSITION)) {
                    declared.add(event.keyPrefix() + bucket.group(1) + ":" + (Long.parseLong(bucket.group(2)) + 1));
                }
            }
        }
    }

    /** The buckets {@code prefixes} of the entry with sequence {@code seq}. */
    private static void addBuckets(List<String> keys, EventId event, long seq, String... prefixes) {
        for (String prefix : prefixes) {
            keys.add(event.keyPrefix() + prefix + ":" + seq / BUCKET);
        }
    }

    /** Keys for a visitor's join, status or leave: identity buckets, fixed keys, and the buckets the hints name. */
    private List<String> visitorKeys(EventId event, Visitor visitor, boolean joining) {
        String p = event.keyPrefix();
        List<String> keys = new ArrayList<>(identityKeys(event, visitor));
        keys.addAll(List.of(p + "cnt", p + "w", p + "of"));
        Long entry = entryHints.getIfPresent(p + visitor.visitorId().value());
        if (entry != null) {
            addBuckets(keys, event, entry, "e", "s");
        }
        if (joining) {
            keys.add(p + "seq");
            Long last = sequenceHints.getIfPresent(p);
            long next = last == null ? 1 : last + 1;
            addBuckets(keys, event, next, "e", "s", "o");
            if (next % BUCKET >= BUCKET - 32) {
                addBuckets(keys, event, next + BUCKET, "e", "s", "o");
            }
        }
        return keys;
    }

    private void remember(EventId event, Visitor visitor, long seq) {
        entryHints.put(event.keyPrefix() + visitor.visitorId().value(), seq);
        sequenceHints.asMap().merge(event.keyPrefix(), seq, Math::max);
    }

    public JoinOutcome join(EventId event, Visitor visitor, Duration livenessInterval) {
        List<String> r = call(Script.JOIN, event, visitorKeys(event, visitor, true),
                event.keyPrefix(), visitor.visitorId().value(), visitor.accountIdentity(),
                Long.toString(clock.instant().getEpochSecond()), Long.toString(livenessInterval.toSeconds()));
        if (r.get(0).equals("CREATED") || r.get(0).equals("EXISTS")) {
            remember(event, visitor, Long.parseLong(r.get(6)));
        }
        return switch (r.get(0)) {
            case "CREATED" -> new JoinOutcome(true, visitorStatus(r));
            case "EXISTS" -> new JoinOutcome(false, visitorStatus(r));
            case "ENDED" -> throw new QueueProblem(Problem.EVENT_ENDED, "The sale of this event has ended.");
            case "SOLD_OUT" -> throw new QueueProblem(Problem.SOLD_OUT, "This event is sold out; the queue is closed.");
            default -> throw unknownEvent(r);
        };
    }

    /** The visitor's status, or null when the identity has no entry; refreshes liveness at most once per interval. */
    public VisitorStatus status(EventId event, Visitor visitor, Duration livenessInterval) {
        List<String> r = call(Script.STATUS, event, visitorKeys(event, visitor, false),
                event.keyPrefix(), visitor.visitorId().value(), visitor.accountIdentity(),
                Long.toString(clock.instant().getEpochSecond()),
                Long.toString(livenessInterval.toSeconds()));
        if (r.get(0).equals("NO_EVENT")) {
            throw unknownEvent(r);
        }
        if (r.get(0).equals("NO_ENTRY")) {
            return null;
        }
        remember(event, visitor, Long.parseLong(r.get(6)));
        return visitorStatus(r);
    }

    /** Parses the reply of the shared Lua function visitor_status (first element: the outcome). */
    private static VisitorStatus visitorStatus(List<String> r) {
        Instant offerExpires = r.get(10).isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(r.get(10)));
        return new VisitorStatus(Phase.valueOf(r.get(1)), mode(r.get(2)), emptyToNull(r.get(3)),
                Double.parseDouble(r.get(4)), Long.parseLong(r.get(5)), EntryId.ofSequence(Long.parseLong(r.get(6))),
                EntryState.ofLetter(r.get(7)), Long.parseLong(r.get(8)), Long.parseLong(r.get(9)), offerExpires);
    }

    /** WAITING -> LEFT; an entry already LEFT stays so (leave is idempotent). */
    public void leave(EventId event, Visitor visitor) {
        List<String> r = call(Script.LEAVE, event, visitorKeys(event, visitor, false),
                event.keyPrefix(), visitor.visitorId().value(), visitor.accountIdentity());
        switch (r.get(0)) {
            case "LEFT" -> {
            }
            case "NO_ENTRY" -> throw new QueueProblem(Problem.NOT_IN_QUEUE, "This visitor has no place in this queue.");
            case "STATE" -> throw new QueueProblem(Problem.STATE_CONFLICT,
                    "Only a waiting entry can leave; this one is " + EntryState.ofLetter(r.get(2)) + ".");
            default -> throw unknownEvent(r);
        }
    }

    public EventState putEvent(EventId event, EventUpdate u) {
        String allowed = u.phase().mayFollow().stream().map(Enum::name).collect(Collectors.joining(",", ",", ","));
        List<String> r = call(Script.EVENT_PUT, event,
                List.of(eventKey(event), event.keyPrefix() + "seq", event.keyPrefix() + "cnt"),
                event.keyPrefix(), u.phase().name(), allowed, Long.toString(clock.millis()),
                Long.toString(u.saleGeneration()),
                "mode", u.mode().name(),
                "ann", nullToEmpty(u.announcement()),
                "commit", nullToEmpty(u.commitment()),
                "seed", nullToEmpty(u.seed()),
                "scope", u.identityScope().name(),
                "policy", u.expiredOfferPolicy().name(),
                "ordering", u.presaleOrdering().name(),
                "rate", Double.toString(u.admissionRatePerSecond()),
                "ttl", Long.toString(u.offerTtlSeconds()),
                "opensAt", u.opensAt() == null ? "" : Long.toString(u.opensAt().toEpochMilli()));
        return switch (r.get(0)) {
            case "OK" -> eventState(event, r.subList(1, r.size()));
            case "PHASE" -> throw new QueueProblem(Problem.PHASE_CONFLICT,
                    "The event is " + r.get(1) + " and cannot become " + u.phase() + ".");
            case "STALE" -> throw new QueueProblem(Problem.STALE_GENERATION,
                    "The event is at sale generation " + r.get(1) + ".");
            default -> throw unknownEvent(r);
        };
    }

    public EventState readEvent(EventId event) {
        List<String> r = call(Script.EVENT_READ, event, List.of(eventKey(event), event.keyPrefix() + "cnt"),
                event.keyPrefix());
        if (!r.get(0).equals("OK")) {
            throw unknownEvent(r);
        }
        return eventState(event, r.subList(1, r.size()));
    }

    /**
     * Writes one chunk of the draw: {@code pairs} alternates entry sequence and order key. The final chunk marks
     * the draw complete. Returns the result, or null when the draw had already completed before this call.
     */
    public DrawWrite writeDraw(EventId event, String seedHex, boolean finalChunk, List<Long> pairs) {
        List<Object> args = new ArrayList<>(pairs.size() + 4);
        args.add(event.keyPrefix());
        args.add(seedHex);
        args.add(finalChunk ? "1" : "0");
        args.add(Long.toString(clock.millis()));
        pairs.forEach(p -> args.add(Long.toString(p)));
        Set<String> keys = new LinkedHashSet<>(List.of(eventKey(event), event.keyPrefix() + "w"));
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            keys.add(event.keyPrefix() + "e:" + pairs.get(i) / BUCKET);
            keys.add(event.keyPrefix() + "o:" + pairs.get(i + 1) / BUCKET);
        }
        List<String> r = call(Script.DRAW, event, new ArrayList<>(keys), args.toArray());
        return switch (r.get(0)) {
            case "PARTIAL" -> DrawWrite.PARTIAL;
            case "DONE" -> DrawWrite.COMPLETE;
            case "NOT_OPEN" -> throw new QueueProblem(Problem.DRAW_NOT_ALLOWED,
                    "The draw runs at opening; the event is still SCHEDULED.");
            case "SEED_MISMATCH" -> throw new QueueProblem(Problem.SEED_MISMATCH,
                    "The draw of this event uses another seed.");
            default -> throw unknownEvent(r);
        };
    }

    /** What one draw write did. */
    public enum DrawWrite {
        PARTIAL, COMPLETE
    }

    /**
     * Records that the edge saw these visitors poll (one script call for the whole batch): last-seen is written for
     * each entry still WAITING and held by the visitor named. Answers the entries that are not, so the edge sends
     * their next poll here instead of answering it.
     */
    public List<EntryId> recordSeen(EventId event, List<SeenEntry> seen) {
        if (seen.isEmpty()) {
            return List.of();
        }
        String p = event.keyPrefix();
        List<Object> keys = new ArrayList<>(seen.size() * 2);
        List<Object> args = new ArrayList<>(seen.size() * 2 + 2);
        args.add(Long.toString(clock.instant().getEpochSecond()));
        args.add(String.valueOf(EntryState.WAITING.letter()));
        for (SeenEntry entry : seen) {
            long seq = entry.entryId().sequence();
            keys.add(p + "e:" + seq / BUCKET);
            keys.add(p + "s:" + seq / BUCKET);
            args.add(Long.toString(seq));
            args.add(entry.visitorId().value());
        }
        return scripts.run(Script.LIVENESS, eventKey(event), keys, args.toArray()).stream()
                .map(seq -> EntryId.ofSequence(Long.parseLong(seq))).toList();
    }

    /** An entry the edge saw polling, with the visitor whose cookie came with its ticket. */
    public record SeenEntry(EntryId entryId, VisitorId visitorId) {
    }

    public List<Candidate> candidates(EventId event, int limit) {
        List<String> r = call(Script.CANDIDATES, event, List.of(eventKey(event), event.keyPrefix() + "w"),
                event.keyPrefix(), Integer.toString(limit));
        if (!r.get(0).equals("OK")) {
            throw unknownEvent(r);
        }
        List<Candidate> out = new ArrayList<>();
        for (int i = 1; i + 2 < r.size(); i += 3) {
            out.add(new Candidate(EntryId.ofSequence(Long.parseLong(r.get(i))), r.get(i + 1), Long.parseLong(r.get(i + 2))));
        }
        return out;
    }

    public List<OfferResult> offer(EventId event, List<OfferRequest> offers) {
        List<Object> args = new ArrayList<>(offers.size() * 3 + 1);
        args.add(event.keyPrefix());
        String p = event.keyPrefix();
        Set<String> keys = new LinkedHashSet<>(List.of(eventKey(event), p + "cnt", p + "w", p + "of"));
        for (OfferRequest o : offers) {
            keys.add(p + "e:" + o.entryId().sequence() / BUCKET);
            args.add(Long.toString(o.entryId().sequence()));
            args.add(o.grantId());
            args.add(Long.toString(o.expiresAt().toEpochMilli()));
        }
        List<String> r = call(Script.OFFERS, event, new ArrayList<>(keys), args.toArray());
        if (r.get(0).equals("NOT_DRAWN")) {
            throw new QueueProblem(Problem.DRAW_INCOMPLETE, "No offer is made before the pre-sale draw completes.");
        }
        if (!r.get(0).equals("OK")) {
            throw unknownEvent(r);
        }
        List<OfferResult> out = new ArrayList<>();
        for (int i = 1; i < r.size(); i += 3) {
            EntryState state = r.get(i + 1).equals("-") ? null : EntryState.ofLetter(r.get(i + 1));
            out.add(new OfferResult(EntryId.ofSequence(Long.parseLong(r.get(i))), state, r.get(i + 2).equals("1")));
        }
        return out;
    }

    public EntryState transition(EventId event, EntryId entry, TransitionTarget target, String grantId) {
        String letter;
        String allowedFrom;
        if (target == TransitionTarget.OFFER_EXPIRED) {
            letter = "X";
            allowedFrom = "O";
        } else {
            EntryState to = EntryState.valueOf(target.name());
            letter = String.valueOf(to.letter());
            allowedFrom = to.allowedFrom().stream().map(s -> String.valueOf(s.letter())).collect(Collectors.joining());
        }
        String p = event.keyPrefix();
        List<String> keys = new ArrayList<>(List.of(eventKey(event), p + "cnt", p + "of", p + "seq", p + "w",
                p + "e:" + entry.sequence() / BUCKET));
        if (target == TransitionTarget.OFFER_EXPIRED) {
            // a requeue takes the next sequence as its order key
            Long last = sequenceHints.getIfPresent(p);
            if (last != null) {
                addBuckets(keys, event, last + 1, "o");
            }
        }
        List<String> r = call(Script.TRANSITION, event, keys,
                event.keyPrefix(), Long.toString(entry.sequence()), letter, grantId, allowedFrom);
        return switch (r.get(0)) {
            case "OK" -> EntryState.ofLetter(r.get(1));
            case "NO_ENTRY" -> throw new QueueProblem(Problem.UNKNOWN_ENTRY, "No such entry in this event.");
            case "GRANT" -> throw new QueueProblem(Problem.GRANT_MISMATCH,
                    "The entry is " + EntryState.ofLetter(r.get(1)) + " and not held by this grant.");
            case "STATE" -> throw new QueueProblem(Problem.STATE_CONFLICT,
                    "The entry is " + EntryState.ofLetter(r.get(1)) + " and cannot become " + target + ".");
            default -> throw unknownEvent(r);
        };
    }

    public Counts counts(EventId event) {
        String p = event.keyPrefix();
        List<String> r = call(Script.COUNTS, event, List.of(eventKey(event), p + "cnt", p + "w"), p);
        if (!r.get(0).equals("OK")) {
            throw unknownEvent(r);
        }
        Map<String, String> m = pairs(r.subList(1, r.size()));
        long oldest = 0;
        if (m.containsKey("frontJoinedAt")) {
            oldest = Math.max(0, clock.instant().getEpochSecond() - Long.parseLong(m.get("frontJoinedAt")));
        }
        long left = num(m, "left");
        long offersExpired = num(m, "offerExpired");
        return new Counts(num(m, "waiting"), num(m, "offered"), num(m, "active"), num(m, "completed"), left,
                num(m, "expired"), num(m, "joins"), oldest, left + offersExpired, offersExpired, num(m, "requeued"));
    }

    public Snapshot snapshot(EventId event, int buckets) {
        List<String> r = call(Script.SNAPSHOT, event,
                List.of(eventKey(event), event.keyPrefix() + "w", event.keyPrefix() + "cnt"),
                event.keyPrefix(), Integer.toString(buckets));
        if (!r.get(0).equals("OK")) {
            throw unknownEvent(r);
        }
        int n = Integer.parseInt(r.get(1));
        List<String> fields = new ArrayList<>(r.subList(2, 2 + n));
        fields.add("waiting");
        fields.add(r.get(2 + n));
        EventState state = eventState(event, fields);
        List<WaitingBucket> out = new ArrayList<>();
        for (int i = 3 + n; i + 1 < r.size(); i += 2) {
            out.add(new WaitingBucket(Long.parseLong(r.get(i)), Long.parseLong(r.get(i + 1))));
        }
        return new Snapshot(state, out, clock.instant());
    }

    private static EventState eventState(EventId event, List<String> flat) {
        Map<String, String> m = pairs(flat);
        return new EventState(event, Phase.valueOf(m.get("phase")), mode(m.get("mode")), m.get("ann"),
                num(m, "gen"), m.get("commit"), m.get("seed"), IdentityScope.parse(m.get("scope")),
                ExpiredOfferPolicy.parse(m.get("policy")), PresaleOrdering.parse(m.get("ordering")),
                m.containsKey("rate") ? Double.parseDouble(m.get("rate")) : 0, num(m, "ttl"), instant(m.get("opensAt")),
                m.containsKey("presale") ? Long.valueOf(m.get("presale")) : null, instant(m.get("drawAt")),
                m.get("drawSeed"), num(m, "wm"), num(m, "waiting"));
    }

    private static Mode mode(String value) {
        return value == null || value.isEmpty() ? Mode.QUEUEING : Mode.valueOf(value);
    }

    private static Map<String, String> pairs(List<String> flat) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(flat.get(i), flat.get(i + 1));
        }
        return m;
    }

    private static long num(Map<String, String> m, String key) {
        String v = m.get(key);
        return v == null ? 0 : Long.parseLong(v);
    }

    private static Instant instant(String epochMillis) {
        return epochMillis == null || epochMillis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(epochMillis));
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }

    private static String emptyToNull(String s) {
        return s == null || s.isEmpty() ? null : s;
    }

    private static QueueProblem unknownEvent(List<String> reply) {
        if (!reply.isEmpty() && reply.get(0).equals("NO_EVENT")) {
            return new QueueProblem(Problem.UNKNOWN_EVENT, "No such event.");
        }
        throw new IllegalStateException("unexpected script reply " + reply.get(0));
    }

    private static String eventKey(EventId event) {
        return event.keyPrefix() + "ev";
    }

    private static List<String> identityKeys(EventId event, Visitor visitor) {
        String visitorKey = identityKey(event, visitor.visitorId().value());
        String accountKey = visitor.account() == null ? visitorKey : identityKey(event, visitor.accountIdentity());
        return List.of(eventKey(event), visitorKey, accountKey);
    }

    /** Identities spread over small hashes, each kept in Redis's compact encoding. */
    static String identityKey(EventId event, String identity) {
        return event.keyPrefix() + "id:" + Math.floorMod(identity.hashCode(), IDENTITY_BUCKETS);
    }
}
