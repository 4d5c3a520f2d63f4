package dev.waitroom.queue.join;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.queue.redis.ScriptReplies;
import dev.waitroom.queue.web.RetryLaterException;
import dev.waitroom.web.ProblemException;
import java.time.Duration;
import java.util.List;

/** Decoders of the replies of join.lua and leave.lua: each outcome becomes a result or a problem. */
final class JoinReplies {

    private JoinReplies() {}

    /**
     * join.lua: CREATED or EXISTS followed by the visitor's status ({@link VisitorStatusReply}); ENDED; SOLD_OUT;
     * THROTTLED, seconds until the join ceiling's window ends.
     */
    static JoinOutcome join(List<String> r) {
        return switch (r.get(0)) {
            case "CREATED" -> new JoinOutcome(true, VisitorStatusReply.decode(r));
            case "EXISTS" -> new JoinOutcome(false, VisitorStatusReply.decode(r));
            case "ENDED" -> throw new ProblemException(ProblemType.EVENT_ENDED, "The sale of this event has ended.");
            case "SOLD_OUT" ->
                throw new ProblemException(ProblemType.SOLD_OUT, "This event is sold out; the queue is closed.");
            case "THROTTLED" -> throw throttled(Long.parseLong(r.get(1)));
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }

    private static RetryLaterException throttled(long seconds) {
        return new RetryLaterException(
                ProblemType.JOINS_THROTTLED,
                "More people are joining this event right now than it takes in a second. Your join was not made and"
                        + " nothing was stored; the page tries again by itself in a moment.",
                Duration.ofSeconds(seconds));
    }

    /** leave.lua: LEFT, entry; NO_ENTRY; STATE, entry, state letter. */
    static void leave(List<String> r) {
        switch (r.get(0)) {
            case "LEFT" -> {}
            case "NO_ENTRY" ->
                throw new ProblemException(ProblemType.NOT_IN_QUEUE, "This visitor has no place in this queue.");
            case "STATE" ->
                throw new ProblemException(
                        ProblemType.STATE_CONFLICT,
                        "Only a waiting entry can leave; this one is " + EntryState.ofLetter(r.get(2)) + ".");
            default -> throw ScriptReplies.unknownEvent(r);
        }
    }
}
