package dev.waitroom.booking.catalogue;

import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.SeatCategories;
import java.util.Collection;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Keeps the coordinator told which seat categories have no seat left to take (docs/design/sale-rules/seat-categories.md).
 * A category is sold out while none of its seats is {@link SeatConditions#TAKEABLE}: every seat sold, or held by a
 * hold whose deadline has not passed. {@code seat_categories.sold_out} remembers the last state noticed; a write that
 * flips it re-arms the event's CATEGORIES signal in the same transaction, and the counts go out when the signal is
 * delivered. Writers notice the categories they touched; the sweep notices what they cannot: two transactions taking
 * a category's last seats at once (neither sees the other's seats go), and holds whose deadline passed.
 */
@Service
public class CategoryReports {

    /** True when the flag disagrees with the seats: sold out with a seat to take, or not sold out without one. */
    private static final String FLAG_IS_STALE = "k.sold_out = EXISTS (SELECT 1 FROM seats s"
            + " WHERE s.event_id = k.event_id AND s.category = k.name AND " + SeatConditions.TAKEABLE + ")";

    private static final String CURRENT = "NOT EXISTS (SELECT 1 FROM seats s WHERE s.event_id = c.event_id"
            + " AND s.category = c.name AND " + SeatConditions.TAKEABLE + ")";

    private final JdbcClient jdbc;
    private final CoordinatorOutbox outbox;

    CategoryReports(JdbcClient jdbc, CoordinatorOutbox outbox) {
        this.jdbc = jdbc;
        this.outbox = outbox;
    }

    /**
     * Inside the writer's transaction, after it changed these seats: flips the flag of each of their categories that
     * reached or left 0 takeable seats and re-arms the report. The flagged rows are locked in name order (two writers
     * flipping the same categories cannot deadlock) and only when a flag changes, so the common hold pays one read.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void seatsChanged(EventId event, Collection<String> seatIds) {
        if (seatIds.isEmpty()) {
            return;
        }
        flip(
                event,
                "k.name IN (SELECT DISTINCT category FROM seats WHERE event_id = :e AND seat_id IN (:ids))",
                seatIds);
    }

    /** As {@link #seatsChanged}, for categories named directly (an inventory that grew). */
    @Transactional(propagation = Propagation.MANDATORY)
    public void categoriesChanged(EventId event, Collection<String> names) {
        if (names.isEmpty()) {
            return;
        }
        flip(event, "k.name IN (:ids)", names);
    }

    private void flip(EventId event, String which, Collection<String> ids) {
        int flipped = jdbc.sql("""
                UPDATE seat_categories c SET sold_out = %s
                WHERE (c.event_id, c.name) IN (
                    SELECT k.event_id, k.name FROM seat_categories k
                    WHERE k.event_id = :e AND %s AND %s
                    ORDER BY k.name FOR UPDATE)
                """.formatted(CURRENT, which, FLAG_IS_STALE))
                .param("e", event.value())
                .param("ids", List.copyOf(ids))
                .update();
        if (flipped > 0) {
            outbox.categoriesChanged(event);
        }
    }

    /**
     * Every event's categories whose flag is stale: flips them and re-arms their events' reports. Rows a writer has
     * locked are skipped (it is flipping them itself); returns the number of events re-armed.
     */
    @Transactional
    public int sweep() {
        List<String> events = jdbc.sql("""
                WITH flipped AS (
                    UPDATE seat_categories c SET sold_out = %s
                    WHERE (c.event_id, c.name) IN (
                        SELECT k.event_id, k.name FROM seat_categories k WHERE %s
                        ORDER BY k.event_id, k.name FOR UPDATE SKIP LOCKED)
                    RETURNING c.event_id)
                SELECT DISTINCT event_id FROM flipped ORDER BY event_id
                """.formatted(CURRENT, FLAG_IS_STALE))
                .query(String.class)
                .list();
        events.forEach(e -> outbox.categoriesChanged(EventId.of(e)));
        return events.size();
    }

    /**
     * With a sold-out signal: the categories are reported too, so the page's sold-out categories agree with the
     * event's sold-out mode.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void soldOut(EventId event) {
        outbox.categoriesChanged(event);
    }

    /**
     * What the coordinator is sent: the seats that can be taken now, per category, counted at this moment (the same
     * count as {@link Catalogue#categories}' {@code available}).
     */
    @Transactional(readOnly = true)
    public SeatCategories report(EventId event) {
        return new SeatCategories(jdbc.sql("""
                SELECT c.name, (SELECT count(*) FROM seats s WHERE s.event_id = c.event_id AND s.category = c.name
                                  AND %s) AS available
                FROM seat_categories c WHERE c.event_id = :e ORDER BY c.name
                """.formatted(SeatConditions.TAKEABLE))
                .param("e", event.value())
                .query((rs, n) -> new SeatCategories.Category(rs.getString(1), rs.getLong(2)))
                .list());
    }
}
