package dev.waitroom.queue.metrics;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.queue.redis.ScriptReplies;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * What the queue gauges read from Redis: the event's counters and the join time of the entry at the front
 * (counts.lua, one call), and the liveness of its waiting entries (unseen.lua, a run of buckets per call).
 */
@Component
class GaugeReads {

    private final QueueScripts scripts;
    private final LuaScript counts;
    private final LuaScript unseen;

    GaugeReads(QueueScripts scripts) {
        this.scripts = scripts;
        this.counts = scripts.load("counts", LuaScript.Kind.READ);
        this.unseen = scripts.load("unseen", LuaScript.Kind.GIVEN_KEYS, EntryStateLua.STATES);
    }

    /** The event's counters (field -> value) and frontJoinedAt when anyone waits; null when the event is unknown. */
    Map<String, String> counters(EventId event) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(counts, k, List.of(k.event(), k.counters(), k.waiting()), k.prefix());
        if (r.isEmpty() || !r.get(0).equals("OK")) {
            return null;
        }
        return ScriptReplies.pairs(r.subList(1, r.size()));
    }

    /** WAITING entries last seen before {@code cutoffEpochSecond}, over every entry bucket of the event. */
    long unseen(EventId event, long cutoffEpochSecond, int bucketsPerCall) {
        EventKeys k = EventKeys.of(event);
        long total = 0;
        long lastBucket = 0;
        for (long from = 0; from <= lastBucket; from += bucketsPerCall) {
            List<Object> keys = new ArrayList<>();
            keys.add(k.sequence());
            for (long b = from; b < from + bucketsPerCall; b++) {
                keys.add(k.entries(b * EventKeys.BUCKET));
                keys.add(k.seen(b * EventKeys.BUCKET));
            }
            List<String> r = scripts.run(unseen, k.event(), keys, Long.toString(cutoffEpochSecond));
            total += Long.parseLong(r.get(1));
            lastBucket = Long.parseLong(r.get(2)) / EventKeys.BUCKET;
        }
        return total;
    }
}
