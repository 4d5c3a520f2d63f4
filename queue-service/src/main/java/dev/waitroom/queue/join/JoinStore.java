package dev.waitroom.queue.join;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaConstants;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import dev.waitroom.web.ProblemException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/** Joining and leaving in Redis: join.lua and leave.lua, each one atomic script (docs/design/architecture.md#join-path). */
@Component
public class JoinStore {

    /** The after-purchase rule under which a completed entry's place is kept, so a join does not make a new one. */
    private static final String AFTER_PURCHASE =
            LuaConstants.locals(Map.of("AFTER_PURCHASE_KEEP", AfterPurchase.KEEP.name()));

    private static final int DECLARE_ATTEMPTS = 8;
    private static final Pattern BUCKET_NAME = Pattern.compile("([eso]):(\\d+)");

    private final QueueScripts scripts;
    private final VisitorKeys keys;
    private final Clock clock;
    private final LuaScript join;
    private final LuaScript joinBatch;
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
        this.joinBatch = scripts.load(
                "join_batch",
                LuaScript.Kind.CHANGE_TAKING_SEQUENCE,
                EntryStateLua.STATES,
                AFTER_PURCHASE,
                VisitorStatusReply.LIBRARY,
                "local function join_one(KEYS, ARGV)\n" + QueueScripts.source("join") + "\nend");
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

    /**
     * The joins of {@code visitors}, in this order, in one Lua call (join_batch.lua, each join exactly join.lua): one
     * {@link BatchJoin} per visitor, in the same order, each the outcome or the refusal that visitor's join alone would
     * have had. A batch that meets buckets it did not declare goes on from the first join not made, declaring them
     * (joins already made stay made, each one atomic as a single join is). A failure of Redis itself fails the call:
     * the joins made before it are made, as a single join's can be, and a repeated join finds its entry.
     */
    public List<BatchJoin> joinAll(EventId event, List<Visitor> visitors, Duration livenessInterval) {
        EventKeys k = EventKeys.of(event);
        List<BatchJoin> joined = new ArrayList<>(visitors.size());
        Set<String> shared = keys.ofBatch(k, visitors);
        String now = Long.toString(clock.instant().getEpochSecond());
        String liveness = Long.toString(livenessInterval.toSeconds());
        for (int attempt = 1; joined.size() < visitors.size(); attempt++) {
            List<Visitor> rest = visitors.subList(joined.size(), visitors.size());
            List<Object> declared = new ArrayList<>(1 + 2 * rest.size() + shared.size());
            declared.add(k.event());
            List<Object> args = new ArrayList<>(4 + 2 * rest.size());
            args.add(k.prefix());
            args.add(now);
            args.add(liveness);
            args.add(Integer.toString(rest.size()));
            for (Visitor v : rest) {
                declared.addAll(VisitorKeys.identityKeys(k, v).subList(1, 3));
                args.add(v.visitorId().value());
                args.add(v.accountIdentity());
            }
            declared.addAll(shared);
            List<String> r = scripts.run(joinBatch, k.event(), declared, args.toArray());
            int made = Integer.parseInt(r.get(1));
            int at = 2;
            for (int i = 0; i < made; i++) {
                int values = Integer.parseInt(r.get(at));
                List<String> reply = r.subList(at + 1, at + 1 + values);
                at += 1 + values;
                joined.add(decoded(k, rest.get(i), reply));
            }
            if (r.get(0).equals("DONE")) {
                break;
            }
            if (attempt == DECLARE_ATTEMPTS) {
                throw new IllegalStateException("join_batch still names undeclared keys " + r.subList(at, r.size()));
            }
            for (String name : r.subList(at, r.size())) {
                shared.add(k.named(name));
                Matcher bucket = BUCKET_NAME.matcher(name);
                if (bucket.matches()) {
                    // the next bucket too: concurrent joins may move the sequence past this one before the call returns
                    shared.add(k.named(bucket.group(1) + ":" + (Long.parseLong(bucket.group(2)) + 1)));
                }
            }
        }
        return joined;
    }

    private BatchJoin decoded(EventKeys k, Visitor visitor, List<String> reply) {
        try {
            JoinOutcome outcome = JoinReplies.join(reply);
            keys.remember(k, visitor, outcome.status().entryId());
            return new BatchJoin(outcome, null);
        } catch (ProblemException refused) {
            return new BatchJoin(null, refused);
        }
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
