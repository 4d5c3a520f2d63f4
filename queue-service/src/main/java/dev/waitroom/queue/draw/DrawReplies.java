package dev.waitroom.queue.draw;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.queue.redis.ScriptReplies;
import dev.waitroom.web.ProblemException;
import java.util.List;

/** Decoder of the reply of draw.lua. */
final class DrawReplies {

    private DrawReplies() {}

    /** PARTIAL; DONE, completed at (also when it had completed before); NOT_OPEN; SEED_MISMATCH. */
    static DrawWrite write(List<String> r) {
        return switch (r.get(0)) {
            case "PARTIAL" -> DrawWrite.PARTIAL;
            case "DONE" -> DrawWrite.COMPLETE;
            case "NOT_OPEN" ->
                throw new ProblemException(
                        ProblemType.DRAW_NOT_ALLOWED, "The draw runs at opening; the event is still SCHEDULED.");
            case "SEED_MISMATCH" ->
                throw new ProblemException(ProblemType.SEED_MISMATCH, "The draw of this event uses another seed.");
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }
}
