package dev.waitroom.queue.redis;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** What every reply decoder needs: the outcome every event script may answer, and field/value lists read as a hash. */
public final class ScriptReplies {

    /** The first element of a script's reply when the event has never been pushed. */
    public static final String NO_EVENT = "NO_EVENT";

    private ScriptReplies() {}

    /** The problem for a reply no decoder expects: an unknown event, or else a script out of step with its decoder. */
    public static ProblemException unknownEvent(List<String> reply) {
        if (!reply.isEmpty() && reply.get(0).equals(NO_EVENT)) {
            return new ProblemException(ProblemType.UNKNOWN_EVENT, "No such event.");
        }
        throw new IllegalStateException("unexpected script reply " + reply.get(0));
    }

    /** Alternating field and value, as HGETALL answers them. */
    public static Map<String, String> pairs(List<String> flat) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i + 1 < flat.size(); i += 2) {
            m.put(flat.get(i), flat.get(i + 1));
        }
        return m;
    }

    public static long number(Map<String, String> m, String field) {
        String v = m.get(field);
        return v == null ? 0 : Long.parseLong(v);
    }

    /** Epoch millis, or null when absent or empty. */
    public static Instant instant(String epochMillis) {
        return epochMillis == null || epochMillis.isEmpty() ? null : Instant.ofEpochMilli(Long.parseLong(epochMillis));
    }
}
