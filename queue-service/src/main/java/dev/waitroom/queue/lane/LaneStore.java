package dev.waitroom.queue.lane;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.EntryStateLua;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorKeys;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.queue.redis.ScriptReplies;
import dev.waitroom.web.ProblemException;
import java.util.List;
import org.springframework.stereotype.Component;

/** Places entries in lanes (lane.lua): the queue's half of redeeming an access code. */
@Component
class LaneStore {

    private final QueueScripts scripts;
    private final VisitorKeys keys;
    private final LuaScript lane;

    LaneStore(QueueScripts scripts, VisitorKeys keys) {
        this.scripts = scripts;
        this.keys = keys;
        this.lane = scripts.load("lane", LuaScript.Kind.CHANGE, EntryStateLua.STATES);
    }

    LaneMoveResult move(EventId event, Visitor visitor, LaneName to) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                lane,
                k,
                keys.of(k, visitor, false),
                k.prefix(),
                visitor.visitorId().value(),
                visitor.accountIdentity(),
                to.value());
        return switch (r.get(0)) {
            case "OK" -> {
                EntryId entry = EntryId.ofSequence(Long.parseLong(r.get(1)));
                keys.remember(k, visitor, entry);
                yield new LaneMoveResult(
                        entry.value(),
                        EntryState.ofLetter(r.get(2)).name(),
                        r.get(3),
                        r.get(4).equals("1"));
            }
            case "NO_ENTRY" ->
                throw new ProblemException(ProblemType.NOT_IN_QUEUE, "This visitor has no place in this queue.");
            case "STATE" ->
                throw new ProblemException(
                        ProblemType.STATE_CONFLICT,
                        "Only a waiting place can move to a lane; this one is "
                                + EntryState.ofLetter(r.get(2)).name()
                                + ".");
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }
}
