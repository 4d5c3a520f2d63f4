package dev.waitroom.queue.draw;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.springframework.stereotype.Component;

/** The draw's writes in Redis: draw.lua, one chunk of order keys per call. */
@Component
class DrawStore {

    private final QueueScripts scripts;
    private final Clock clock;
    private final LuaScript draw;

    DrawStore(QueueScripts scripts, Clock clock) {
        this.scripts = scripts;
        this.clock = clock;
        this.draw = scripts.load("draw", LuaScript.Kind.CHANGE, EntryStateLua.STATES);
    }

    /**
     * Writes one chunk of the draw: {@code pairs} alternates entry sequence and order key. The final chunk marks
     * the draw complete.
     */
    DrawWrite writeDraw(EventId event, String seedHex, boolean finalChunk, List<Long> pairs) {
        EventKeys k = EventKeys.of(event);
        List<Object> args = new ArrayList<>(pairs.size() + 4);
        args.add(k.prefix());
        args.add(seedHex);
        args.add(finalChunk ? "1" : "0");
        args.add(Long.toString(clock.millis()));
        pairs.forEach(p -> args.add(Long.toString(p)));
        Set<String> keys = new LinkedHashSet<>(List.of(k.event(), k.waiting(), k.lanes(), k.laneQueue()));
        for (int i = 0; i + 1 < pairs.size(); i += 2) {
            keys.add(k.entries(pairs.get(i)));
            keys.add(k.order(pairs.get(i + 1)));
        }
        return DrawReplies.write(scripts.call(draw, k, new ArrayList<>(keys), args.toArray()));
    }
}
