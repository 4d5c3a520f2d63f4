package dev.waitroom.queue.status;

import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.join.VisitorStatusReply;
import dev.waitroom.queue.redis.ScriptReplies;
import java.util.List;

/** Decoder of the reply of status.lua: NO_ENTRY, or OK followed by the visitor's status ({@link VisitorStatusReply}). */
final class StatusReplies {

    private StatusReplies() {}

    /** The status, or null when the identity has no entry. */
    static VisitorStatus status(List<String> r) {
        return switch (r.get(0)) {
            case "OK" -> VisitorStatusReply.decode(r);
            case "NO_ENTRY" -> null;
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }
}
