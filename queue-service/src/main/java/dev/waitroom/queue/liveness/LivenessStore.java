package dev.waitroom.queue.liveness;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** Last-seen of the entries the edge answered for, in Redis: liveness.lua, one call per batch. */
@Component
class LivenessStore {

    private final QueueScripts scripts;
    private final Clock clock;
    private final LuaScript liveness;

    LivenessStore(QueueScripts scripts, Clock clock) {
        this.scripts = scripts;
        this.clock = clock;
        this.liveness = scripts.load("liveness", LuaScript.Kind.GIVEN_KEYS, EntryStateLua.STATES);
    }

    /**
     * Records that the edge saw these visitors poll (one script call for the whole batch): last-seen is written for
     * each entry still WAITING and held by the visitor named. Answers the entries that are not, so the edge sends
     * their next poll here instead of answering it.
     */
    List<EntryId> recordSeen(EventId event, List<SeenEntry> seen) {
        if (seen.isEmpty()) {
            return List.of();
        }
        EventKeys k = EventKeys.of(event);
        List<Object> keys = new ArrayList<>(seen.size() * 2);
        List<Object> args = new ArrayList<>(seen.size() * 2 + 1);
        args.add(Long.toString(clock.instant().getEpochSecond()));
        for (SeenEntry entry : seen) {
            long seq = entry.entryId().sequence();
            keys.add(k.entries(seq));
            keys.add(k.seen(seq));
            args.add(Long.toString(seq));
            args.add(entry.visitorId().value());
        }
        return LivenessReplies.notWaiting(scripts.run(liveness, k.event(), keys, args.toArray()));
    }
}
