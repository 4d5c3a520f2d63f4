package dev.waitroom.queue.offers;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.queue.Candidate;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.KeyHints;
import dev.waitroom.queue.redis.LuaConstants;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * The coordinator's calls in Redis (docs/design/architecture.md#admission-path): candidates.lua, offers.lua,
 * transition.lua, counts.lua.
 */
@Component
class OfferStore {

    /**
     * How transition.lua names the target OFFER_EXPIRED, which is no state: a letter no {@link EntryState} is stored
     * as, given to the script as the local {@code OFFER_EXPIRED}. Every other target is its state's letter.
     */
    static final String OFFER_EXPIRED = "X";

    /**
     * How transition.lua names the target OFFER_WITHDRAWN (OFFERED -> WAITING under the same order key), as a letter
     * no {@link EntryState} is stored as, given to the script as the local {@code OFFER_WITHDRAWN}.
     */
    static final String OFFER_WITHDRAWN = "R";

    static {
        if (OFFER_EXPIRED.equals(OFFER_WITHDRAWN)
                || Arrays.stream(EntryState.values())
                        .map(EntryStateLua::letter)
                        .anyMatch(l -> l.equals(OFFER_EXPIRED) || l.equals(OFFER_WITHDRAWN))) {
            throw new IllegalStateException("OFFER_EXPIRED or OFFER_WITHDRAWN is spelled like a stored entry state");
        }
    }

    private final QueueScripts scripts;
    private final KeyHints hints;
    private final Clock clock;
    private final LuaScript candidates;
    private final LuaScript offers;
    private final LuaScript transition;
    private final LuaScript counts;
    private final LuaScript laneCandidates;

    OfferStore(QueueScripts scripts, KeyHints hints, Clock clock) {
        this.scripts = scripts;
        this.hints = hints;
        this.clock = clock;
        this.candidates = scripts.load("candidates", LuaScript.Kind.READ);
        this.offers = scripts.load("offers", LuaScript.Kind.CHANGE, EntryStateLua.STATES);
        this.transition = scripts.load(
                "transition",
                LuaScript.Kind.CHANGE_TAKING_SEQUENCE,
                EntryStateLua.STATES,
                EntryStateLua.COUNTERS,
                EntryStateLua.NEXT,
                LuaConstants.locals(Map.of("OFFER_EXPIRED", OFFER_EXPIRED, "OFFER_WITHDRAWN", OFFER_WITHDRAWN)));
        this.counts = scripts.load("counts", LuaScript.Kind.READ);
        this.laneCandidates = scripts.load("lane_candidates", LuaScript.Kind.READ);
    }

    List<Candidate> candidates(EventId event, int limit) {
        EventKeys k = EventKeys.of(event);
        return OfferReplies.candidates(
                scripts.call(candidates, k, List.of(k.event(), k.waiting()), k.prefix(), Integer.toString(limit)));
    }

    /** The front of one declared lane (lane_candidates.lua); the general lane is {@link #candidates(EventId, int)}. */
    List<Candidate> candidates(EventId event, LaneName lane, int limit) {
        if (lane.isGeneral()) {
            return candidates(event, limit);
        }
        EventKeys k = EventKeys.of(event);
        return OfferReplies.candidates(scripts.call(
                laneCandidates,
                k,
                List.of(k.event(), k.laneQueue()),
                k.prefix(),
                lane.value(),
                Integer.toString(limit)));
    }

    List<OfferOutcome> offer(EventId event, List<OfferRequest> requests) {
        EventKeys k = EventKeys.of(event);
        List<Object> args = new ArrayList<>(requests.size() * 3 + 1);
        args.add(k.prefix());
        Set<String> keys = new LinkedHashSet<>(
                List.of(k.event(), k.counters(), k.waiting(), k.offers(), k.lanes(), k.laneQueue()));
        for (OfferRequest o : requests) {
            keys.add(k.entries(o.entryId().sequence()));
            args.add(Long.toString(o.entryId().sequence()));
            args.add(o.grantId());
            args.add(Long.toString(o.expiresAt().toEpochMilli()));
        }
        return OfferReplies.offers(scripts.call(offers, k, new ArrayList<>(keys), args.toArray()));
    }

    EntryState transition(EventId event, EntryId entry, TransitionTarget target, String grantId) {
        String to = switch (target) {
            case OFFER_EXPIRED -> OFFER_EXPIRED;
            case OFFER_WITHDRAWN -> OFFER_WITHDRAWN;
            default -> EntryStateLua.letter(stateOf(target));
        };
        EventKeys k = EventKeys.of(event);
        List<String> keys = new ArrayList<>(List.of(
                k.event(),
                k.counters(),
                k.offers(),
                k.sequence(),
                k.waiting(),
                k.lanes(),
                k.laneQueue(),
                k.entries(entry.sequence())));
        if (target == TransitionTarget.OFFER_EXPIRED) {
            // a requeue takes the next sequence as its order key
            Long last = hints.lastSequence(k);
            if (last != null) {
                keys.add(k.order(last + 1));
            }
        }
        return OfferReplies.transition(
                target, scripts.call(transition, k, keys, k.prefix(), Long.toString(entry.sequence()), to, grantId));
    }

    /** The state a target other than OFFER_EXPIRED and OFFER_WITHDRAWN moves an entry to. */
    private static EntryState stateOf(TransitionTarget target) {
        return switch (target) {
            case ACTIVE -> EntryState.ACTIVE;
            case COMPLETED -> EntryState.COMPLETED;
            case EXPIRED -> EntryState.EXPIRED;
            case OFFER_EXPIRED, OFFER_WITHDRAWN ->
                throw new IllegalArgumentException(target + " is no state of its own");
        };
    }

    QueueCounts counts(EventId event) {
        EventKeys k = EventKeys.of(event);
        return OfferReplies.counts(
                scripts.call(counts, k, List.of(k.event(), k.counters(), k.waiting()), k.prefix()),
                clock.instant().getEpochSecond());
    }
}
