package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.queue.redis.EventErasure;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.web.ProblemException;
import java.time.Duration;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Drops the keys of an event the coordinator archived or deleted (docs/operating/event-lifecycle.md). The event hash
 * goes first, in one script with the check that nobody joined (when asked), so a join either came first and the drop
 * is refused, or finds no event; the other keys follow by a scan of the event's one hash slot. A tombstone stays for
 * {@link #TOMBSTONE_LIFE}, refusing state pushes the coordinator read before the drop.
 */
@Component
public class EventDrop {

    private static final Logger log = LoggerFactory.getLogger(EventDrop.class);

    /** The tombstone's name in the event's keys (event_put.lua refuses a push while it lives). */
    static final String TOMBSTONE = "gone";

    /** Far longer than a push the coordinator read before the drop can take to arrive. */
    static final Duration TOMBSTONE_LIFE = Duration.ofMinutes(2);

    private final QueueScripts scripts;

    private final EventErasure erasure;

    private final LuaScript drop;

    EventDrop(QueueScripts scripts, EventErasure erasure) {
        this.scripts = scripts;
        this.erasure = erasure;
        this.drop = scripts.load("event_drop", LuaScript.Kind.CHANGE);
    }

    /**
     * Drops the event's keys; with {@code onlyIfEmpty}, refuses (409 {@code state-conflict}, nothing changed) when
     * anyone has joined it. Idempotent: dropping an event the queue does not hold succeeds.
     */
    public void drop(EventId event, boolean onlyIfEmpty) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                drop,
                k,
                List.of(k.event(), k.sequence(), k.named(TOMBSTONE)),
                k.prefix(),
                onlyIfEmpty ? "1" : "0",
                Long.toString(TOMBSTONE_LIFE.toSeconds()));
        if (r.get(0).equals("ENTRIES")) {
            throw new ProblemException(
                    ProblemType.STATE_CONFLICT,
                    "Visitors have joined event " + event.value() + " (" + r.get(1) + " entries); it is not dropped.");
        }
        long keys = erasure.eraseExcept(k, TOMBSTONE);
        log.info("Event {} dropped: {} entries, {} keys removed", event.value(), r.get(1), keys + 1);
    }
}
