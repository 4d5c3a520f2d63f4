package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.redis.LuaScript;
import dev.waitroom.queue.redis.QueueScripts;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.springframework.stereotype.Component;

/** The event in Redis: the state the coordinator pushes (event_put.lua), reads of it (event_read.lua), the snapshot. */
@Component
public class EventStore {

    /** Event hash field: the event's name as the page shows it; absent when it has none. */
    static final String NAME_FIELD = "name";

    /** Event hash field: the after-purchase rule, read by join.lua (a completed entry joins again unless KEEP). */
    static final String AFTER_PURCHASE_FIELD = "after";

    /** Event hash field: the sold-out seat categories, joined by {@link #CATEGORY_SEPARATOR}; absent when none. */
    static final String SOLD_OUT_FIELD = "soldOut";

    /**
     * Event hash field: the measured offer pace ({@code Pace.encode}), read by visitor_status.lua for the estimate
     * and for the range shown at join; absent when none was pushed.
     */
    public static final String PACE_FIELD = "pace";

    /**
     * Event hash field: the coordinator's signed statement of the mode, stored as pushed for the gateway's snapshot
     * (docs/design/security/signed-mode.md); absent when none was pushed, and removed by a push without one.
     */
    static final String MODE_STATEMENT_FIELD = "modeSig";

    /**
     * Event hash field: why offers are held back ({@code AdmissionHold.encode}), read by visitor_status.lua and the
     * snapshot; absent when they are not, and removed by a push without one.
     */
    static final String HOLD_FIELD = "hold";

    /** Not a character of a category name (contract {@code EventUpdateRequest.CATEGORY}). */
    static final String CATEGORY_SEPARATOR = ",";

    private final QueueScripts scripts;
    private final Clock clock;
    private final LuaScript put;
    private final LuaScript read;
    private final LuaScript snapshot;

    EventStore(QueueScripts scripts, Clock clock) {
        this.scripts = scripts;
        this.clock = clock;
        this.put = scripts.load("event_put", LuaScript.Kind.CHANGE);
        this.read = scripts.load("event_read", LuaScript.Kind.READ);
        this.snapshot = scripts.load("snapshot", LuaScript.Kind.READ);
    }

    public EventState putEvent(EventId event, EventUpdateRequest u) {
        EventPhase phase = u.phaseValue();
        JoinGate gate = u.joinGateValue();
        String allowed = mayFollow(phase).stream().map(EventPhase::name).collect(Collectors.joining(",", ",", ","));
        EventKeys k = EventKeys.of(event);
        java.util.Optional<JoinWindow> window = JoinWindow.of(gate);
        List<String> r = scripts.call(
                put,
                k,
                List.of(k.event(), k.sequence(), k.counters(), k.named(EventDrop.TOMBSTONE)),
                k.prefix(),
                phase.name(),
                allowed,
                Long.toString(clock.millis()),
                Long.toString(u.saleGenerationValue()),
                "mode",
                u.modeValue().name(),
                "ann",
                nullToEmpty(u.announcement()),
                "commit",
                nullToEmpty(u.commitment()),
                "seed",
                nullToEmpty(u.seed()),
                "scope",
                u.identityScopeValue().name(),
                "policy",
                u.expiredOfferPolicyValue().name(),
                "ordering",
                u.presaleOrderingValue().name(),
                "rate",
                Double.toString(u.admissionRatePerSecondValue()),
                "ttl",
                Long.toString(u.offerTtlSecondsValue()),
                "opensAt",
                u.opensAt() == null ? "" : Long.toString(u.opensAt().toEpochMilli()),
                JoinWindow.RATE_FIELD,
                Double.toString(gate.maxJoinsPerSecond()),
                JoinWindow.DIFFICULTY_FIELD,
                Long.toString(gate.proofOfWorkDifficulty()),
                // what join.lua counts against: an empty value removes the field, so no ceiling is no field
                JoinWindow.SECONDS_FIELD,
                window.map(w -> Long.toString(w.seconds())).orElse(""),
                JoinWindow.ENTRIES_FIELD,
                window.map(w -> Long.toString(w.entries())).orElse(""),
                NAME_FIELD,
                nullToEmpty(u.name()),
                AFTER_PURCHASE_FIELD,
                u.afterPurchaseValue().name(),
                SOLD_OUT_FIELD,
                String.join(CATEGORY_SEPARATOR, u.soldOutCategoriesValue()),
                PACE_FIELD,
                u.pace() == null ? "" : u.pace().encode(),
                MODE_STATEMENT_FIELD,
                nullToEmpty(u.modeStatement()),
                HOLD_FIELD,
                u.admissionHold() == null ? "" : u.admissionHold().encode());
        return EventReplies.put(event, phase, r);
    }

    public EventState readEvent(EventId event) {
        EventKeys k = EventKeys.of(event);
        return EventReplies.read(event, scripts.call(read, k, List.of(k.event(), k.counters()), k.prefix()));
    }

    public Snapshot snapshot(EventId event, int buckets) {
        EventKeys k = EventKeys.of(event);
        List<String> r = scripts.call(
                snapshot, k, List.of(k.event(), k.waiting(), k.counters()), k.prefix(), Integer.toString(buckets));
        return EventReplies.snapshot(event, r, clock.instant());
    }

    /** The phases a push of {@code phase} may follow: a repeated push is idempotent, a phase never goes back. */
    static List<EventPhase> mayFollow(EventPhase phase) {
        return Arrays.stream(EventPhase.values())
                .filter(p -> p == phase || p.canMoveTo(phase))
                .toList();
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
