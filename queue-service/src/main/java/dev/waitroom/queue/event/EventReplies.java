package dev.waitroom.queue.event;

import static dev.waitroom.queue.redis.ScriptReplies.instant;
import static dev.waitroom.queue.redis.ScriptReplies.number;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.contract.queue.WaitingBucket;
import dev.waitroom.queue.redis.ScriptReplies;
import dev.waitroom.web.ProblemException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decoders of the replies of event_put.lua, event_read.lua and snapshot.lua. Each carries the event hash as field/value
 * pairs (HGETALL) plus {@code waiting} from the counters.
 */
final class EventReplies {

    private EventReplies() {}

    /** event_put.lua: OK followed by the event's fields; PHASE, stored phase; STALE, stored generation. */
    static EventState put(EventId event, EventPhase pushed, List<String> r) {
        return switch (r.get(0)) {
            case "OK" -> eventState(event, r.subList(1, r.size()));
            case "PHASE" ->
                throw new ProblemException(
                        ProblemType.PHASE_CONFLICT, "The event is " + r.get(1) + " and cannot become " + pushed + ".");
            case "GONE" ->
                throw new ProblemException(
                        ProblemType.PHASE_CONFLICT,
                        "The event was archived or deleted a moment ago; its state is not taken for now.");
            case "STALE" ->
                throw new ProblemException(
                        ProblemType.STALE_GENERATION, "The event is at sale generation " + r.get(1) + ".");
            default -> throw ScriptReplies.unknownEvent(r);
        };
    }

    /** event_read.lua: OK followed by the event's fields. */
    static EventState read(EventId event, List<String> r) {
        if (!r.get(0).equals("OK")) {
            throw ScriptReplies.unknownEvent(r);
        }
        return eventState(event, r.subList(1, r.size()));
    }

    /**
     * snapshot.lua: OK, n, the event hash's n fields and values, the waiting count, then pairs of a bucket's
     * highest order key and its count of waiting entries.
     */
    static Snapshot snapshot(EventId event, List<String> r, Instant generatedAt) {
        if (!r.get(0).equals("OK")) {
            throw ScriptReplies.unknownEvent(r);
        }
        int n = Integer.parseInt(r.get(1));
        List<String> fields = new ArrayList<>(r.subList(2, 2 + n));
        fields.add("waiting");
        fields.add(r.get(2 + n));
        EventState state = eventState(event, fields);
        List<WaitingBucket> buckets = new ArrayList<>();
        for (int i = 3 + n; i + 1 < r.size(); i += 2) {
            buckets.add(new WaitingBucket(Long.parseLong(r.get(i)), Long.parseLong(r.get(i + 1))));
        }
        return new Snapshot(state, buckets, generatedAt);
    }

    /** The join gate as event_put.lua stored it: fields absent (an event stored before it had one) read as 0. */
    private static JoinGate joinGate(Map<String, String> m) {
        String rate = m.get(JoinWindow.RATE_FIELD);
        return new JoinGate(rate == null ? 0 : Double.parseDouble(rate), number(m, JoinWindow.DIFFICULTY_FIELD));
    }

    /** The sold-out categories as event_put.lua stored them; absent (none, or an event stored before) is none. */
    private static List<String> categories(String stored) {
        return stored == null || stored.isEmpty() ? List.of() : List.of(stored.split(EventStore.CATEGORY_SEPARATOR));
    }

    private static EventState eventState(EventId event, List<String> flat) {
        Map<String, String> m = ScriptReplies.pairs(flat);
        String mode = m.get("mode");
        EventUpdateRequest pushed = EventUpdateRequest.of(
                        EventPhase.valueOf(m.get("phase")),
                        mode == null || mode.isEmpty() ? OperatingMode.QUEUEING : OperatingMode.valueOf(mode),
                        m.get("ann"),
                        number(m, "gen"),
                        m.get("commit"),
                        m.get("seed"),
                        IdentityScope.parse(m.get("scope")),
                        ExpiredOfferPolicy.parse(m.get("policy")),
                        PresaleOrdering.parse(m.get("ordering")),
                        m.containsKey("rate") ? Double.parseDouble(m.get("rate")) : 0,
                        number(m, "ttl"),
                        instant(m.get("opensAt")),
                        joinGate(m),
                        m.get(EventStore.NAME_FIELD),
                        AfterPurchase.parse(m.get(EventStore.AFTER_PURCHASE_FIELD)),
                        categories(m.get(EventStore.SOLD_OUT_FIELD)),
                        Pace.decode(m.get(EventStore.PACE_FIELD)))
                .withModeStatement(m.get(EventStore.MODE_STATEMENT_FIELD))
                .withAdmissionHold(AdmissionHold.decode(m.get(EventStore.HOLD_FIELD)));
        return new EventState(
                event,
                pushed,
                m.containsKey("presale") ? Long.valueOf(m.get("presale")) : null,
                instant(m.get("drawAt")),
                m.get("drawSeed"),
                number(m, "wm"),
                number(m, "waiting"),
                instant(m.get("updatedAt")));
    }
}
