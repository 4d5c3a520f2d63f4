package dev.waitroom.queue.status;

import dev.waitroom.contract.EventId;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorKeys;
import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.join.VisitorStatusReply;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/** A visitor's status in Redis: status.lua, one atomic read (docs/design/architecture.md#status-path). */
@Component
public class StatusStore {

    private final QueueScripts scripts;
    private final VisitorKeys keys;
    private final Clock clock;
    private final LuaScript status;

    StatusStore(QueueScripts scripts, VisitorKeys keys, Clock clock) {
        this.scripts = scripts;
        this.keys = keys;
        this.clock = clock;
        this.status = scripts.load("status", LuaScript.Kind.READ, EntryStateLua.STATES, VisitorStatusReply.LIBRARY);
    }

    /** The visitor's status, or null when the identity has no entry; refreshes liveness at most once per interval. */
    public VisitorStatus status(EventId event, Visitor visitor, Duration livenessInterval) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                status,
                k,
                keys.of(k, visitor, false),
                k.prefix(),
                visitor.visitorId().value(),
                visitor.accountIdentity(),
                Long.toString(clock.instant().getEpochSecond()),
                Long.toString(livenessInterval.toSeconds()));
        VisitorStatus found = StatusReplies.status(r);
        if (found != null) {
            keys.remember(k, visitor, found.entryId());
        }
        return found;
    }
}
