package dev.waitroom.booking.holds;

import dev.waitroom.booking.Lifecycle;
import dev.waitroom.booking.catalogue.CategoryReports;
import dev.waitroom.booking.catalogue.SeatConditions;
import dev.waitroom.booking.catalogue.SeatId;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Seat holds: placing, reading, releasing and expiring them. The database enforces "at most one live hold or sale
 * per seat": every seat write is a conditional UPDATE naming the states it expects and its row count is checked.
 * Rows are locked in seat-id order so concurrent multi-seat holds cannot deadlock.
 */
@Service
public class Holds {

    /** Counter of hold attempts, tagged {@code outcome}: created, conflict, unknown, limit. Read by the health signals. */
    public static final String HOLDS_METRIC = "waitroom.booking.holds";

    public static final String HOLD_FAILURES_METRIC = "waitroom.booking.hold.failures";

    private final JdbcClient jdbc;
    private final HoldOrders orders;
    private final HoldsProperties properties;
    private final CategoryReports categories;
    private final Counter holdsCreated;
    private final Counter holdsConflicted;
    private final Counter holdsUnknown;
    private final Counter holdsOverLimit;
    private final Counter holdFailures;

    Holds(
            JdbcClient jdbc,
            HoldOrders orders,
            HoldsProperties properties,
            CategoryReports categories,
            MeterRegistry meters) {
        this.jdbc = jdbc;
        this.orders = orders;
        this.properties = properties;
        this.categories = categories;
        this.holdsCreated = meters.counter(HOLDS_METRIC, "outcome", "created");
        this.holdsConflicted = meters.counter(HOLDS_METRIC, "outcome", "conflict");
        this.holdsUnknown = meters.counter(HOLDS_METRIC, "outcome", "unknown");
        this.holdsOverLimit = meters.counter(HOLDS_METRIC, "outcome", "limit");
        this.holdFailures = meters.counter(HOLD_FAILURES_METRIC);
    }

    /**
     * Holds all the seats or none: 409 problem naming the seats that are taken, 422 for seats that do not exist.
     */
    @Transactional
    public Hold hold(EventId event, HoldOwner owner, Collection<SeatId> seatIds) {
        TreeSet<SeatId> wanted = new TreeSet<>(seatIds);
        if (wanted.isEmpty() || wanted.size() > properties.maxSeatsPerHold()) {
            throw new IllegalArgumentException("a hold takes 1 to " + properties.maxSeatsPerHold() + " distinct seats");
        }
        List<String> ids = wanted.stream().map(SeatId::value).toList();
        requireWithinSessionLimit(event, owner, ids.size());
        List<String> existing = jdbc.sql("""
                SELECT seat_id FROM seats WHERE event_id = :e AND seat_id IN (:ids) ORDER BY seat_id FOR UPDATE
                """)
                .param("e", event.value())
                .param("ids", ids)
                .query(String.class)
                .list();
        if (existing.size() != ids.size()) {
            holdsUnknown.increment();
            holdFailures.increment();
            List<String> unknown =
                    ids.stream().filter(id -> !existing.contains(id)).toList();
            throw new ProblemException(
                    ProblemType.UNKNOWN_SEATS, "no such seats in this event", Map.of("seatIds", unknown));
        }
        HoldId id = HoldId.random();
        Instant expiresAt = jdbc.sql("""
                INSERT INTO holds (hold_id, event_id, session_id, visitor, state, expires_at)
                VALUES (:h, :e, :s, :v, 'ACTIVE', now() + make_interval(secs => :ttl))
                RETURNING expires_at
                """)
                .param("h", id.value())
                .param("e", event.value())
                .param("s", owner.sessionId())
                .param("v", owner.visitor())
                .param("ttl", properties.holdTtl().toMillis() / 1000.0)
                .query((rs, n) -> instant(rs, 1))
                .single();
        int taken = jdbc.sql("UPDATE seats SET state = 'HELD', hold_id = :h, held_until = :until "
                        + "WHERE event_id = :e AND seat_id IN (:ids) AND " + SeatConditions.TAKEABLE)
                .param("h", id.value())
                .param("until", OffsetDateTime.ofInstant(expiresAt, java.time.ZoneOffset.UTC))
                .param("e", event.value())
                .param("ids", ids)
                .update();
        if (taken != ids.size()) {
            holdsConflicted.increment();
            holdFailures.increment();
            List<String> unavailable = jdbc.sql("SELECT seat_id FROM seats WHERE event_id = :e AND seat_id IN (:ids) "
                            + "AND (hold_id IS DISTINCT FROM :h) ORDER BY seat_id")
                    .param("e", event.value())
                    .param("ids", ids)
                    .param("h", id.value())
                    .query(String.class)
                    .list();
            // Rolls back the hold row and every seat it took.
            throw new ProblemException(
                    ProblemType.SEATS_UNAVAILABLE,
                    "some of these seats are held or sold",
                    Map.of("seatIds", unavailable));
        }
        for (String seat : ids) {
            jdbc.sql("INSERT INTO hold_seats (hold_id, event_id, seat_id) VALUES (:h, :e, :s)")
                    .param("h", id.value())
                    .param("e", event.value())
                    .param("s", seat)
                    .update();
        }
        categories.seatsChanged(event, ids);
        holdsCreated.increment();
        return find(event, id).orElseThrow();
    }

    /**
     * One session may not hold (or have bought) more than the limit. A transaction-scoped advisory lock per session
     * serialises that session's concurrent holds so two of them cannot both pass the count.
     */
    private void requireWithinSessionLimit(EventId event, HoldOwner owner, int wanted) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")
                .param("k", event.value() + "/" + owner.sessionId())
                .query()
                .singleRow();
        int taken = jdbc.sql("""
                SELECT (SELECT count(*) FROM seats s JOIN holds h ON h.hold_id = s.hold_id
                        WHERE h.event_id = :e AND h.session_id = :s AND s.state = 'HELD' AND s.held_until > now())
                     + (SELECT count(*) FROM sold_seats ss JOIN orders o ON o.order_id = ss.order_id
                        WHERE o.event_id = :e AND o.session_id = :s)
                """)
                .param("e", event.value())
                .param("s", owner.sessionId())
                .query(Integer.class)
                .single();
        if (taken + wanted > properties.maxSeatsPerSession()) {
            holdsOverLimit.increment();
            holdFailures.increment();
            throw new ProblemException(
                    ProblemType.SEAT_LIMIT_REACHED,
                    "a shopping session may hold or buy at most " + properties.maxSeatsPerSession() + " seats; it has "
                            + taken,
                    Map.of("limit", properties.maxSeatsPerSession(), "taken", taken));
        }
    }

    @Transactional(readOnly = true)
    public Optional<Hold> find(EventId event, HoldId id) {
        return findHold(event, id, false);
    }

    /** Reads a hold and locks its row until the caller's transaction ends (serialises order creation and release). */
    @Transactional(propagation = Propagation.MANDATORY)
    public Optional<Hold> lock(EventId event, HoldId id) {
        return findHold(event, id, true);
    }

    private Optional<Hold> findHold(EventId event, HoldId id, boolean lock) {
        Optional<HoldRow> row = jdbc.sql("SELECT hold_id, session_id, visitor, state, expires_at FROM holds "
                        + "WHERE hold_id = :h AND event_id = :e" + (lock ? " FOR UPDATE" : ""))
                .param("h", id.value())
                .param("e", event.value())
                .query((rs, n) -> new HoldRow(
                        new HoldOwner(rs.getString("session_id"), rs.getString("visitor")),
                        HoldState.valueOf(rs.getString("state")),
                        instant(rs, 5)))
                .optional();
        return row.map(r -> new Hold(id, event, r.owner(), r.state(), r.expiresAt(), seatsOf(id)));
    }

    private List<HeldSeat> seatsOf(HoldId id) {
        return jdbc.sql("""
                SELECT hs.seat_id, s.category, c.price_cents
                FROM hold_seats hs
                JOIN seats s ON s.event_id = hs.event_id AND s.seat_id = hs.seat_id
                JOIN seat_categories c ON c.event_id = s.event_id AND c.name = s.category
                WHERE hs.hold_id = :h ORDER BY hs.seat_id
                """)
                .param("h", id.value())
                .query((rs, n) -> new HeldSeat(SeatId.of(rs.getString(1)), rs.getString(2), rs.getLong(3)))
                .list();
    }

    /**
     * The shopper gives a hold back (ACTIVE -> RELEASED) and its seats return. Idempotent: a hold that already ended
     * stays as it is. Refused while an order of the hold is under way or paid; another session's hold is "not found".
     */
    @Transactional
    public void release(EventId event, HoldId id, HoldOwner owner) {
        Hold hold = lock(event, id)
                .filter(h -> h.owner().sessionId().equals(owner.sessionId()))
                .orElseThrow(() -> new ProblemException(ProblemType.HOLD_NOT_FOUND, "no such hold"));
        if (hold.state() != HoldState.ACTIVE) {
            return;
        }
        // The hold row is locked, so an order being created for it has committed or not started.
        if (orders.hasLiveOrder(id)) {
            throw new ProblemException(
                    ProblemType.HOLD_HAS_ORDER,
                    "this hold has an order under way; its payment decides what happens to the seats");
        }
        if (end(id, HoldState.RELEASED) == 1) {
            freeSeatsOf(id);
            categories.seatsChanged(
                    event, hold.seats().stream().map(s -> s.seatId().value()).toList());
        }
    }

    /**
     * For a sale, inside the caller's transaction: locks the hold row, then its seats in seat-id order (the lock order
     * of every seat write: release and the sweeper do the same) and returns the seats.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public List<SeatId> lockForSale(EventId event, HoldId hold) {
        jdbc.sql("SELECT hold_id FROM holds WHERE hold_id = :h FOR UPDATE")
                .param("h", hold.value())
                .query(UUID.class)
                .single();
        List<String> ids = jdbc.sql("SELECT seat_id FROM hold_seats WHERE hold_id = :h ORDER BY seat_id")
                .param("h", hold.value())
                .query(String.class)
                .list();
        jdbc.sql("SELECT seat_id FROM seats WHERE event_id = :e AND seat_id IN (:ids) ORDER BY seat_id FOR UPDATE")
                .param("e", event.value())
                .param("ids", ids)
                .query(String.class)
                .list();
        return ids.stream().map(SeatId::of).toList();
    }

    /** A lapsed hold whose seats went (partly) to someone else: frees what it still holds and ends it EXPIRED. */
    @Transactional(propagation = Propagation.MANDATORY)
    public void expireOvertaken(HoldId hold) {
        freeSeatsOf(hold);
        end(hold, HoldState.EXPIRED);
    }

    /** The hold's seats are sold: the hold ends CONVERTED (also from EXPIRED, a late payment). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void markConverted(HoldId hold) {
        end(hold, HoldState.CONVERTED);
    }

    /** Ends a hold: one conditional write from the states that may move to {@code to}; returns the rows changed. */
    private int end(HoldId hold, HoldState to) {
        return jdbc.sql("UPDATE holds SET state = :to, ended_at = now() WHERE hold_id = :h AND state IN (:from)")
                .param("to", to.name())
                .param("h", hold.value())
                .param("from", Lifecycle.sourcesOf(to).stream().map(Enum::name).toList())
                .update();
    }

    /**
     * Ends every hold whose deadline has passed and gives its seats back. Seats already taken over lazily by a newer
     * hold are not touched (they no longer point at the lapsed hold).
     */
    @Transactional
    public int expireLapsedHolds(int batch) {
        return jdbc.sql("""
                WITH lapsed AS (
                    UPDATE holds SET state = 'EXPIRED', ended_at = now()
                    WHERE hold_id IN (SELECT hold_id FROM holds WHERE state = 'ACTIVE' AND expires_at <= now()
                                      ORDER BY expires_at LIMIT :batch FOR UPDATE SKIP LOCKED)
                      AND state = 'ACTIVE'
                    RETURNING hold_id
                ), freed AS (
                    UPDATE seats SET state = 'AVAILABLE', hold_id = NULL, held_until = NULL
                    WHERE (event_id, seat_id) IN (
                        SELECT event_id, seat_id FROM seats
                        WHERE state = 'HELD' AND hold_id IN (SELECT hold_id FROM lapsed)
                        ORDER BY event_id, seat_id FOR UPDATE)
                      AND state = 'HELD' AND hold_id IN (SELECT hold_id FROM lapsed)
                    RETURNING seat_id
                )
                SELECT count(*) FROM lapsed
                """).param("batch", batch).query(Integer.class).single();
    }

    /** Frees the seats still held by a hold, locking them in seat order like every other seat write. */
    private void freeSeatsOf(HoldId hold) {
        jdbc.sql("""
                UPDATE seats SET state = 'AVAILABLE', hold_id = NULL, held_until = NULL
                WHERE (event_id, seat_id) IN (SELECT event_id, seat_id FROM seats WHERE hold_id = :h AND state = 'HELD'
                                              ORDER BY event_id, seat_id FOR UPDATE)
                  AND hold_id = :h AND state = 'HELD'
                """).param("h", hold.value()).update();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    private record HoldRow(HoldOwner owner, HoldState state, Instant expiresAt) {}
}
