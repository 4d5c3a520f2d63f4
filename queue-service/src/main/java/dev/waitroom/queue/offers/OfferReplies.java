package dev.waitroom.queue.offers;

import static dev.waitroom.queue.redis.ScriptReplies.number;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.Candidate;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.redis.ScriptReplies;
import dev.waitroom.web.ProblemException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Decoders of the replies of candidates.lua, offers.lua, transition.lua and counts.lua. */
final class OfferReplies {

    /** offers.lua's state of an entry that does not exist. */
    private static final String NO_STATE = "-";

    private static final String HOLDS_GRANT = "1";

    private OfferReplies() {}

    /** candidates.lua: OK, then triples of entry sequence, visitor, order key. */
    static List<Candidate> candidates(List<String> r) {
        if (!r.get(0).equals("OK")) {
            throw ScriptReplies.unknownEvent(r);
        }
        List<Candidate> out = new ArrayList<>();
        for (int i = 1; i + 2 < r.size(); i += 3) {
            out.add(new Candidate(
                    EntryId.ofSequence(Long.parseLong(r.get(i))).value(), r.get(i + 1), Long.parseLong(r.get(i + 2))));
        }
        return out;
    }

    /** offers.lua: OK, then triples of entry sequence, state letter ('-' unknown), '1' when it holds the grant; NOT_DRAWN. */
    static List<OfferOutcome> offers(List<String> r) {
        if (r.get(0).equals("NOT_DRAWN")) {
            throw new ProblemException(
                    ProblemType.DRAW_INCOMPLETE, "No offer is made before the pre-sale draw completes.");
        }
        if (!r.get(0).equals("OK")) {
            throw ScriptReplies.unknownEvent(r);
        }
        List<OfferOutcome> out = new ArrayList<>();
        for (int i = 1; i < r.size(); i += 3) {
            EntryState state = r.get(i + 1).equals(NO_STATE) ? null : EntryState.ofLetter(r.get(i + 1));
            out.add(new OfferOutcome(
                    EntryId.ofSequence(Long.parseLong(r.get(i))),
                    state,
                    r.get(i + 2).equals(HOLDS_GRANT)));
        }
        return out;
    }

    /** transition.lua: OK, state letter now; NO_ENTRY; GRANT, state letter; STATE, state letter. */
    static EntryState transition(TransitionTarget target, List<String> r) {
        return switch (r.get(0)) {
            case "OK" -> EntryState.ofLetter(r.get(1));
            case "NO_ENTRY" -> throw new ProblemException(ProblemType.UNKNOWN_ENTRY, "No such entry in this event.");
            case "GRANT" ->
                throw new ProblemException(
                        ProblemType.GRANT_MISMATCH,
                        "The entry is " + EntryState.ofLetter(r.get(1)) + " and not held by this grant.");
            case "STATE" ->
                throw new ProblemException(
                        ProblemType.STATE_CONFLICT,
                        "The entry is " + EntryState.ofLetter(r.get(1)) + " and cannot become " + target + ".");
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }

    /** counts.lua: OK, the counters as field/value pairs, and frontJoinedAt (epoch seconds) when anyone waits. */
    static QueueCounts counts(List<String> r, long nowEpochSecond) {
        if (!r.get(0).equals("OK")) {
            throw ScriptReplies.unknownEvent(r);
        }
        Map<String, String> m = ScriptReplies.pairs(r.subList(1, r.size()));
        long oldest = 0;
        if (m.containsKey("frontJoinedAt")) {
            oldest = Math.max(0, nowEpochSecond - Long.parseLong(m.get("frontJoinedAt")));
        }
        long left = number(m, "left");
        long offersExpired = number(m, "offerExpired");
        return new QueueCounts(
                number(m, "waiting"),
                number(m, "offered"),
                number(m, "active"),
                number(m, "completed"),
                left,
                number(m, "expired"),
                number(m, "joins"),
                oldest,
                left + offersExpired,
                offersExpired,
                number(m, "requeued"));
    }
}
