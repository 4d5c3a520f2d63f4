package dev.waitroom.booking.inventory;

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

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

import dev.waitroom.booking.EventId;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.booking.problem.ProblemType;
import dev.waitroom.booking.problem.ShopProblemException;

/**
 * Seats, holds and sales. The database enforces "at most one live hold or sale per seat": every seat write is a
 * conditional UPDATE naming the states it expects, its row count is checked, and {@code sold_seats} has the seat
 * as primary key. Rows are locked in seat-id order so concurrent multi-seat holds cannot deadlock.
 */
@Service
public class Inventory {

    /** Counter of hold attempts, tagged {@code outcome}: created, conflict, unknown, limit. Read by the health signals. */
    public static final String HOLDS_METRIC = "waitroom.booking.holds";
    public static final String HOLD_FAILURES_METRIC = "waitroom.booking.hold.failures";

    /** A seat can be taken: free, or held by a hold whose deadline has passed (lazy expiry). */
    private static final String TAKEABLE = "(state = 'AVAILABLE' OR (state = 'HELD' AND held_until <= now()))";

    private final JdbcClient jdbc;
    private final CoordinatorOutbox outbox;
    private final InventoryProperties properties;
    private final Counter holdsCreated;
    private final Counter holdsConflicted;
    private final Counter holdsUnknown;
    private final Counter holdsOverLimit;
    private final Counter holdFailures;

    Inventory(JdbcClient jdbc, CoordinatorOutbox outbox, InventoryProperties properties, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.outbox = outbox;
        this.properties = properties;
        this.holdsCreated = meters.counter(HOLDS_METRIC, "outcome", "created");
        this.holdsConflicted = meters.counter(HOLDS_METRIC, "outcome", "conflict");
        this.holdsUnknown = meters.counter(HOLDS_METRIC, "outcome", "unknown");
        this.holdsOverLimit = meters.counter(HOLDS_METRIC, "outcome", "limit");
        this.holdFailures = meters.counter(HOLD_FAILURES_METRIC);
    }

    /** Creates or grows an event's inventory. Idempotent: repeating it changes nothing; seats are never removed. */
    @Transactional
    public List<CategoryAvailability> define(EventId event, List<CategorySpec> categories) {
        for (CategorySpec category : categories) {
            Integer existing = jdbc.sql("SELECT seat_count FROM seat_categories WHERE event_id = :e AND name = :n FOR UPDATE")
                    .param("e", event.value()).param("n", category.name())
                    .query(Integer.class).optional().orElse(null);
            if (existing != null && category.seats() < existing) {
                throw new ShopProblemException(ProblemType.INVENTORY_CONFLICT,
                        "category " + category.name() + " already has " + existing + " seats; seats are never removed");
            }
            jdbc.sql("""
                    INSERT INTO seat_categories (event_id, name, price_cents, seat_count) VALUES (:e, :n, :p, :s)
                    ON CONFLICT (event_id, name) DO UPDATE
                    SET price_cents = EXCLUDED.price_cents, seat_count = EXCLUDED.seat_count, updated_at = now()
                    WHERE seat_categories.price_cents <> EXCLUDED.price_cents
                       OR seat_categories.seat_count <> EXCLUDED.seat_count
                    """)
                    .param("e", event.value()).param("n", category.name())
                    .param("p", category.priceCents()).param("s", category.seats())
                    .update();
            jdbc.sql("""
                    INSERT INTO seats (event_id, seat_id, category, state)
                    SELECT :e, :n || '-' || g, :n, 'AVAILABLE' FROM generate_series(1, :s) AS g
                    ON CONFLICT (event_id, seat_id) DO NOTHING
                    """)
                    .param("e", event.value()).param("n", category.name()).param("s", category.seats())
                    .update();
        }
        return categories(event);
    }

    @Transactional(readOnly = true)
    public List<CategoryAvailability> categories(EventId event) {
        return jdbc.sql("""
                SELECT c.name, c.price_cents, c.seat_count,
                       (SELECT count(*) FROM seats s WHERE s.event_id = c.event_id AND s.category = c.name
                          AND (s.state = 'AVAILABLE' OR (s.state = 'HELD' AND s.held_until <= now()))) AS available
                FROM seat_categories c WHERE c.event_id = :e ORDER BY c.name
                """)
                .param("e", event.value())
                .query((rs, n) -> new CategoryAvailability(rs.getString("name"), rs.getLong("price_cents"),
                        rs.getInt("seat_count"), rs.getInt("available")))
                .list();
    }

    @Transactional(readOnly = true)
    public List<AvailableSeat> available(EventId event, Optional<String> category) {
        return jdbc.sql("""
                SELECT s.seat_id, s.category, c.price_cents
                FROM seats s JOIN seat_categories c ON c.event_id = s.event_id AND c.name = s.category
                WHERE s.event_id = :e AND (CAST(:c AS text) IS NULL OR s.category = :c)
                  AND (s.state = 'AVAILABLE' OR (s.state = 'HELD' AND s.held_until <= now()))
                ORDER BY s.category, length(s.seat_id), s.seat_id
                LIMIT :limit
                """)
                .param("e", event.value())
                .param("c", category.orElse(null))
                .param("limit", properties.maxListedSeats())
                .query((rs, n) -> new AvailableSeat(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .list();
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
                .param("e", event.value()).param("ids", ids)
                .query(String.class).list();
        if (existing.size() != ids.size()) {
            holdsUnknown.increment();
            holdFailures.increment();
            List<String> unknown = ids.stream().filter(id -> !existing.contains(id)).toList();
            throw new ShopProblemException(ProblemType.UNKNOWN_SEATS, "no such seats in this event",
                    Map.of("seatIds", unknown));
        }
        HoldId id = HoldId.random();
        Instant expiresAt = jdbc.sql("""
                INSERT INTO holds (hold_id, event_id, session_id, visitor, state, expires_at)
                VALUES (:h, :e, :s, :v, 'ACTIVE', now() + make_interval(secs => :ttl))
                RETURNING expires_at
                """)
                .param("h", id.value()).param("e", event.value())
                .param("s", owner.sessionId()).param("v", owner.visitor())
                .param("ttl", properties.holdTtl().toMillis() / 1000.0)
                .query((rs, n) -> instant(rs, 1)).single();
        int taken = jdbc.sql("UPDATE seats SET state = 'HELD', hold_id = :h, held_until = :until "
                        + "WHERE event_id = :e AND seat_id IN (:ids) AND " + TAKEABLE)
                .param("h", id.value()).param("until", OffsetDateTime.ofInstant(expiresAt, java.time.ZoneOffset.UTC))
                .param("e", event.value()).param("ids", ids)
                .update();
        if (taken != ids.size()) {
            holdsConflicted.increment();
            holdFailures.increment();
            List<String> unavailable = jdbc.sql("SELECT seat_id FROM seats WHERE event_id = :e AND seat_id IN (:ids) "
                            + "AND (hold_id IS DISTINCT FROM :h) ORDER BY seat_id")
                    .param("e", event.value()).param("ids", ids).param("h", id.value())
                    .query(String.class).list();
            // Rolls back the hold row and every seat it took.
            throw new ShopProblemException(ProblemType.SEATS_UNAVAILABLE, "some of these seats are held or sold",
                    Map.of("seatIds", unavailable));
        }
        for (String seat : ids) {
            jdbc.sql("INSERT INTO hold_seats (hold_id, event_id, seat_id) VALUES (:h, :e, :s)")
                    .param("h", id.value()).param("e", event.value()).param("s", seat)
                    .update();
        }
        holdsCreated.increment();
        return find(event, id).orElseThrow();
    }

    /**
     * One session may not hold (or have bought) more than the limit. A transaction-scoped advisory lock per session
     * serialises that session's concurrent holds so two of them cannot both pass the count.
     */
    private void requireWithinSessionLimit(EventId event, HoldOwner owner, int wanted) {
        jdbc.sql("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))")
                .param("k", event.value() + "/" + owner.sessionId()).query().singleRow();
        int taken = jdbc.sql("""
                SELECT (SELECT count(*) FROM seats s JOIN holds h ON h.hold_id = s.hold_id
                        WHERE h.event_id = :e AND h.session_id = :s AND s.state = 'HELD' AND s.held_until > now())
                     + (SELECT count(*) FROM sold_seats ss JOIN orders o ON o.order_id = ss.order_id
                        WHERE o.event_id = :e AND o.session_id = :s)
                """)
                .param("e", event.value()).param("s", owner.sessionId())
                .query(Integer.class).single();
        if (taken + wanted > properties.maxSeatsPerSession()) {
            holdsOverLimit.increment();
            holdFailures.increment();
            throw new ShopProblemException(ProblemType.SEAT_LIMIT_REACHED, "a shopping session may hold or buy at most "
                    + properties.maxSeatsPerSession() + " seats; it has " + taken,
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
                .param("h", id.value()).param("e", event.value())
                .query((rs, n) -> new HoldRow(new HoldOwner(rs.getString("session_id"), rs.getString("visitor")),
                        HoldState.valueOf(rs.getString("state")), instant(rs, 5)))
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
        Hold hold = lock(event, id).filter(h -> h.owner().sessionId().equals(owner.sessionId()))
                .orElseThrow(() -> new ShopProblemException(ProblemType.HOLD_NOT_FOUND, "no such hold"));
        if (hold.state() != HoldState.ACTIVE) {
            return;
        }
        // The hold row is locked, so an order being created for it has committed or not started.
        boolean ordered = Boolean.TRUE.equals(jdbc.sql("SELECT EXISTS (SELECT 1 FROM orders WHERE hold_id = :h "
                        + "AND state IN ('PENDING_PAYMENT', 'PAID'))")
                .param("h", id.value()).query(Boolean.class).single());
        if (ordered) {
            throw new ShopProblemException(ProblemType.HOLD_HAS_ORDER,
                    "this hold has an order under way; its payment decides what happens to the seats");
        }
        int ended = jdbc.sql("UPDATE holds SET state = 'RELEASED', ended_at = now() "
                        + "WHERE hold_id = :h AND event_id = :e AND state = 'ACTIVE'")
                .param("h", id.value()).param("e", event.value())
                .update();
        if (ended == 1) {
            freeSeatsOf(id);
        }
    }

    /**
     * Sells the hold's seats to an order, inside the caller's transaction. Sells when every seat is still held by
     * this hold (even past its deadline) or free again; otherwise sells nothing and returns SEATS_GONE.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public SaleOutcome sell(EventId event, HoldId hold, UUID orderId) {
        // Lock order everywhere: hold row, then seats in seat-id order (as release and the sweeper do).
        jdbc.sql("SELECT hold_id FROM holds WHERE hold_id = :h FOR UPDATE").param("h", hold.value())
                .query(UUID.class).single();
        List<String> ids = jdbc.sql("SELECT seat_id FROM hold_seats WHERE hold_id = :h ORDER BY seat_id")
                .param("h", hold.value()).query(String.class).list();
        jdbc.sql("SELECT seat_id FROM seats WHERE event_id = :e AND seat_id IN (:ids) ORDER BY seat_id FOR UPDATE")
                .param("e", event.value()).param("ids", ids).query(String.class).list();
        String sellable = "(state = 'AVAILABLE' OR (state = 'HELD' AND (hold_id = :h OR held_until <= now())))";
        int eligible = jdbc.sql("SELECT count(*) FROM seats WHERE event_id = :e AND seat_id IN (:ids) AND " + sellable)
                .param("e", event.value()).param("ids", ids).param("h", hold.value())
                .query(Integer.class).single();
        if (eligible != ids.size()) {
            // Another shopper has a live hold on (or bought) a seat after this hold lapsed.
            freeSeatsOf(hold);
            jdbc.sql("UPDATE holds SET state = 'EXPIRED', ended_at = now() WHERE hold_id = :h AND state = 'ACTIVE'")
                    .param("h", hold.value()).update();
            return SaleOutcome.SEATS_GONE;
        }
        int sold = jdbc.sql("UPDATE seats SET state = 'SOLD', order_id = :o, hold_id = NULL, held_until = NULL "
                        + "WHERE event_id = :e AND seat_id IN (:ids) AND " + sellable)
                .param("o", orderId).param("e", event.value()).param("ids", ids).param("h", hold.value())
                .update();
        if (sold != ids.size()) {
            throw new IllegalStateException("locked seats changed during a sale");
        }
        for (String seat : ids) {
            // Primary key (event_id, seat_id): a second sale of a seat fails here and rolls everything back.
            jdbc.sql("INSERT INTO sold_seats (event_id, seat_id, order_id) VALUES (:e, :s, :o)")
                    .param("e", event.value()).param("s", seat).param("o", orderId)
                    .update();
        }
        jdbc.sql("UPDATE holds SET state = 'CONVERTED', ended_at = now() WHERE hold_id = :h AND state IN (:from)")
                .param("h", hold.value())
                .param("from", HoldState.sourcesOf(HoldState.CONVERTED).stream().map(Enum::name).toList())
                .update();
        if (isSoldOut(event)) {
            outbox.soldOut(event);
        }
        return SaleOutcome.SOLD;
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
                """)
                .param("batch", batch)
                .query(Integer.class).single();
    }

    /** Events with seats, none of them unsold, and no sold-out signal yet (a sale's own check can race). */
    @Transactional
    public int signalSoldOutEvents() {
        List<String> events = jdbc.sql("""
                SELECT DISTINCT c.event_id FROM seat_categories c
                WHERE c.seat_count > 0
                  AND NOT EXISTS (SELECT 1 FROM coordinator_outbox o WHERE o.dedup_key = 'SOLD_OUT:' || c.event_id)
                  AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.event_id = c.event_id AND s.state <> 'SOLD')
                """)
                .query(String.class).list();
        events.forEach(e -> outbox.soldOut(EventId.of(e)));
        return events.size();
    }

    private boolean isSoldOut(EventId event) {
        return Boolean.TRUE.equals(jdbc.sql("""
                SELECT EXISTS (SELECT 1 FROM seats WHERE event_id = :e)
                   AND NOT EXISTS (SELECT 1 FROM seats WHERE event_id = :e AND state <> 'SOLD')
                """)
                .param("e", event.value()).query(Boolean.class).single());
    }

    /** Frees the seats still held by a hold, locking them in seat order like every other seat write. */
    private void freeSeatsOf(HoldId hold) {
        jdbc.sql("""
                UPDATE seats SET state = 'AVAILABLE', hold_id = NULL, held_until = NULL
                WHERE (event_id, seat_id) IN (SELECT event_id, seat_id FROM seats WHERE hold_id = :h AND state = 'HELD'
                                              ORDER BY event_id, seat_id FOR UPDATE)
                  AND hold_id = :h AND state = 'HELD'
                """)
                .param("h", hold.value()).update();
    }

    private static Instant instant(ResultSet rs, int column) throws SQLException {
        return rs.getObject(column, OffsetDateTime.class).toInstant();
    }

    private record HoldRow(HoldOwner owner, HoldState state, Instant expiresAt) {
    }

    /** For tests and operators: the seats of an event by state. */
    @Transactional(readOnly = true)
    public Map<SeatState, Integer> seatCounts(EventId event) {
        Map<SeatState, Integer> counts = new java.util.EnumMap<>(SeatState.class);
        for (SeatState state : SeatState.values()) {
            counts.put(state, 0);
        }
        jdbc.sql("SELECT state, count(*) FROM seats WHERE event_id = :e GROUP BY state")
                .param("e", event.value())
                .query(rs -> {
                    counts.put(SeatState.valueOf(rs.getString(1)), rs.getInt(2));
                });
        return counts;
    }
}
