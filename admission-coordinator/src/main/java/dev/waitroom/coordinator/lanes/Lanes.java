package dev.waitroom.coordinator.lanes;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/**
 * The lanes of events (table {@code event_lanes}, docs/operating/lanes-and-access-codes.md): declared by ops until the
 * rules are published, read by the ticker every tick. Once the sale is open they cannot change, so the ticker's reads
 * are answered from memory after the first ({@link #frozen}).
 */
@Service
public class Lanes {

    private final JdbcClient jdbc;

    private final EventManagement events;

    private final Map<EventId, LaneSet> frozen = new ConcurrentHashMap<>();

    Lanes(JdbcClient jdbc, EventManagement events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /** The event's lanes as stored (none declared: {@link LaneSet#NONE}). */
    public LaneSet of(EventId id) {
        List<Lane> lanes = this.jdbc
                .sql("select lane, share from event_lanes where event_id = :id order by position")
                .param("id", id.value())
                .query((rs, n) -> new Lane(LaneName.of(rs.getString("lane")), rs.getDouble("share")))
                .list();
        return new LaneSet(lanes);
    }

    /** The lanes of an event whose sale is open, which cannot change any more: read once, then kept. */
    public LaneSet frozen(EventId id) {
        LaneSet known = this.frozen.get(id);
        if (known != null) {
            return known;
        }
        LaneSet read = of(id);
        this.frozen.put(id, read);
        return read;
    }

    /**
     * Replaces the event's lanes, refused with {@code rule-frozen} once its rules are published; audited. A lane that
     * has access codes cannot be dropped (its codes would redeem into nothing).
     */
    public LaneSet replace(EventId id, LaneSet lanes, String actor, String reason) {
        return this.events.changeUnpublishedRule(id, "lanes", describe(lanes), actor, reason, event -> {
            List<String> withCodes = this.jdbc
                    .sql("select distinct lane from access_codes where event_id = :id")
                    .param("id", id.value())
                    .query(String.class)
                    .list();
            for (String lane : withCodes) {
                if (!lanes.has(LaneName.of(lane))) {
                    throw new CoordinatorException(
                            ProblemType.INVALID_LANES,
                            "lane '" + lane + "' has access codes; revoke them before the lane goes");
                }
            }
            this.jdbc
                    .sql("delete from event_lanes where event_id = :id and not (lane = any(:keep))")
                    .param("id", id.value())
                    .param(
                            "keep",
                            lanes.declared().stream().map(l -> l.name().value()).toArray(String[]::new))
                    .update();
            insert(id, lanes);
            return lanes;
        });
    }

    /**
     * Declares the lanes of an event being created, in its creating transaction
     * ({@link EventManagement#create(EventId, dev.waitroom.coordinator.event.EventConfig, String,
     * java.util.function.Consumer)}), before its rules are published; audited with the creation.
     */
    public void declareAtCreation(EventId id, LaneSet lanes, String actor) {
        insert(id, lanes);
        this.events.auditConfig(id, "lanes declared", actor, "lanes " + describe(lanes) + ": event created");
    }

    private void insert(EventId id, LaneSet lanes) {
        int position = 0;
        for (Lane lane : lanes.declared()) {
            this.jdbc
                    .sql("""
                    insert into event_lanes (event_id, lane, share, position)
                    values (:id, :lane, :share, :position)
                    on conflict (event_id, lane) do update set share = excluded.share, position = excluded.position
                    """)
                    .param("id", id.value())
                    .param("lane", lane.name().value())
                    .param("share", lane.share())
                    .param("position", position++)
                    .update();
        }
    }

    static String describe(LaneSet lanes) {
        StringBuilder s = new StringBuilder("[");
        for (Lane lane : lanes.all()) {
            if (s.length() > 1) {
                s.append(", ");
            }
            s.append(lane.name()).append(' ').append(lane.share());
        }
        return s.append(']').toString();
    }
}
