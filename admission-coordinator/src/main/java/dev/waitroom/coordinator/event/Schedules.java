package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Event schedules and their audit (docs/operating/schedules-and-pauses.md). A schedule is replaced as a whole; each
 * window's start and end and the closing are recorded once ({@link #recordOnce}), so the instance that records one is
 * the one that applies it.
 */
@Repository
public class Schedules {

    /** Who the ticker records as the actor of what the schedule applies. */
    public static final String ACTOR = "schedule";

    /** How long the ticker and the pushes use a schedule read: one set on another instance applies within it. */
    private static final long CACHED_NANOS = java.time.Duration.ofSeconds(1).toNanos();

    private final JdbcClient jdbc;

    private final java.util.Map<EventId, Cached> cache = new java.util.concurrent.ConcurrentHashMap<>();

    Schedules(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    private record Cached(Schedule schedule, long readAt) {}

    /** The schedule as read at most a second ago: the ticker asks at every tick and every push. */
    Schedule cached(EventId id) {
        long now = System.nanoTime();
        Cached c = this.cache.get(id);
        if (c != null && now - c.readAt() < CACHED_NANOS) {
            return c.schedule();
        }
        Schedule s = of(id);
        this.cache.put(id, new Cached(s, now));
        return s;
    }

    void forget(EventId id) {
        this.cache.remove(id);
    }

    /** One audited schedule change: set by an operator, or a window started or ended, or the sale closed. */
    public record Change(
            String change, String windowKind, Instant windowStartsAt, String actor, String reason, Instant at) {}

    /** The event's schedule, {@link Schedule#NONE} when none was set. */
    public Schedule of(EventId id) {
        Optional<Instant> closesAt = this.jdbc
                .sql("select closes_at from event_schedules where event_id = :id")
                .param("id", id.value())
                .query((rs, n) -> Optional.ofNullable(instant(rs, "closes_at")))
                .optional()
                .flatMap(o -> o);
        List<PlannedWindow> windows = this.jdbc
                .sql("""
                select kind, starts_at, ends_at, reason from schedule_windows where event_id = :id order by starts_at
                """)
                .param("id", id.value())
                .query((rs, n) -> new PlannedWindow(
                        PlannedWindow.Kind.valueOf(rs.getString("kind")),
                        instant(rs, "starts_at"),
                        instant(rs, "ends_at"),
                        rs.getString("reason")))
                .list();
        return new Schedule(closesAt.orElse(null), windows);
    }

    /** Replaces the schedule; call inside the transaction that holds the event's row lock. */
    void replace(EventId id, Schedule schedule, String actor, String reason) {
        this.jdbc
                .sql("""
                insert into event_schedules (event_id, closes_at) values (:id, :closesAt)
                on conflict (event_id) do update set closes_at = excluded.closes_at, updated_at = now()
                """)
                .param("id", id.value())
                .param("closesAt", at(schedule.closesAt()))
                .update();
        this.jdbc
                .sql("delete from schedule_windows where event_id = :id")
                .param("id", id.value())
                .update();
        for (PlannedWindow w : schedule.windows()) {
            this.jdbc
                    .sql("""
                    insert into schedule_windows (event_id, starts_at, ends_at, kind, reason)
                    values (:id, :startsAt, :endsAt, :kind, :reason)
                    """)
                    .param("id", id.value())
                    .param("startsAt", at(w.startsAt()))
                    .param("endsAt", at(w.endsAt()))
                    .param("kind", w.kind().name())
                    .param("reason", w.reason())
                    .update();
        }
        this.jdbc
                .sql("""
                insert into schedule_changes (event_id, change, actor, reason) values (:id, 'SET', :actor, :reason)
                """)
                .param("id", id.value())
                .param("actor", actor)
                .param("reason", reason)
                .update();
    }

    /**
     * Records a window's start or end ({@code window} null: the closing) unless it is recorded already; true when this
     * call recorded it.
     */
    boolean recordOnce(EventId id, String change, PlannedWindow window, String reason) {
        return this.jdbc
                        .sql("""
                        insert into schedule_changes (event_id, change, window_kind, window_starts_at, actor, reason)
                        values (:id, :change, :kind, :startsAt, :actor, :reason)
                        on conflict do nothing
                        """)
                        .param("id", id.value())
                        .param("change", change)
                        .param("kind", window == null ? null : window.kind().name())
                        .param("startsAt", window == null ? null : at(window.startsAt()))
                        .param("actor", ACTOR)
                        .param("reason", reason)
                        .update()
                == 1;
    }

    /** Whether the window's start has been recorded (and so applied). */
    boolean started(EventId id, PlannedWindow window) {
        return this.jdbc
                        .sql("""
                select count(*) from schedule_changes
                where event_id = :id and change = 'STARTED' and window_starts_at = :startsAt
                """)
                        .param("id", id.value())
                        .param("startsAt", at(window.startsAt()))
                        .query(Long.class)
                        .single()
                > 0;
    }

    /** Whether the event's mode was last changed by the schedule: only then does a planned pause's end resume it. */
    boolean pausedBySchedule(EventId id) {
        return this.jdbc
                .sql("""
                select actor = :actor and to_value = 'PAUSED' from mode_changes
                where event_id = :id and kind = 'MODE' order by id desc limit 1
                """)
                .param("id", id.value())
                .param("actor", ACTOR)
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }

    /** The schedule's audit, oldest first. */
    public List<Change> changes(EventId id) {
        return this.jdbc
                .sql("""
                select change, window_kind, window_starts_at, actor, reason, at from schedule_changes
                where event_id = :id order by id
                """)
                .param("id", id.value())
                .query((rs, n) -> new Change(
                        rs.getString("change"),
                        rs.getString("window_kind"),
                        instant(rs, "window_starts_at"),
                        rs.getString("actor"),
                        rs.getString("reason"),
                        instant(rs, "at")))
                .list();
    }

    private static OffsetDateTime at(Instant t) {
        return t == null ? null : OffsetDateTime.ofInstant(t, ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, String column) throws SQLException {
        OffsetDateTime t = rs.getObject(column, OffsetDateTime.class);
        return t == null ? null : t.toInstant();
    }
}
