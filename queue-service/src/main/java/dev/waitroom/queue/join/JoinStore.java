package dev.waitroom.queue.join;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaConstants;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** Joining and leaving in Redis: join.lua and leave.lua, each one atomic script (docs/ARCHITECTURE.md#join-path). */
@Component
public class JoinStore {

    /** The after-purchase rule under which a completed entry's place is kept, so a join does not make a new one. */
    private static final String AFTER_PURCHASE =
            LuaConstants.locals(Map.of("AFTER_PURCHASE_KEEP", AfterPurchase.KEEP.name()));

    private final QueueScripts scripts;
    private final VisitorKeys keys;
    private final Clock clock;
    private final LuaScript join;
    private final LuaScript leave;

    JoinStore(QueueScripts scripts, VisitorKeys keys, Clock clock) {
        this.scripts = scripts;
        this.keys = keys;
        this.clock = clock;
        this.join = scripts.load(
                "join",
                LuaScript.Kind.CHANGE_TAKING_SEQUENCE,
                EntryStateLua.STATES,
                AFTER_PURCHASE,
                VisitorStatusReply.LIBRARY);
        this.leave = scripts.load("leave", LuaScript.Kind.CHANGE, EntryStateLua.STATES);
    }

    public JoinOutcome join(EventId event, Visitor visitor, Duration livenessInterval) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                join,
                k,
                keys.of(k, visitor, true),
                k.prefix(),
                visitor.visitorId().value(),
                visitor.accountIdentity(),
                Long.toString(clock.instant().getEpochSecond()),
                Long.toString(livenessInterval.toSeconds()));
        JoinOutcome outcome = JoinReplies.join(r);
        keys.remember(k, visitor, outcome.status().entryId());
        return outcome;
    }

    /** WAITING -> LEFT; an entry already LEFT stays so (leave is idempotent). */
    public void leave(EventId event, Visitor visitor) {
        EventKeys k = EventKeys.of(event);
        JoinReplies.leave(scripts.call(
                leave,
                k,
                keys.of(k, visitor, false),
                k.prefix(),
                visitor.visitorId().value(),
                visitor.accountIdentity()));
    }
}
