package dev.waitroom.booking.sale;

import dev.waitroom.booking.catalogue.CategoryReports;
import dev.waitroom.booking.catalogue.SeatConditions;
import dev.waitroom.booking.catalogue.SeatId;
import dev.waitroom.booking.catalogue.SeatState;
import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.Holds;
import dev.waitroom.booking.outbox.CoordinatorOutbox;
import dev.waitroom.contract.EventId;
import java.util.List;
import java.util.OptionalLong;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Selling a paid hold's seats, and noticing when an event has sold out. A seat is sold at most once: the sale is a
 * conditional UPDATE whose row count is checked, and {@code sold_seats} has the seat as primary key.
 */
@Service
public class Sale {

    private final JdbcClient jdbc;
    private final Holds holds;
    private final CoordinatorOutbox outbox;
    private final CategoryReports categories;

    Sale(JdbcClient jdbc, Holds holds, CoordinatorOutbox outbox, CategoryReports categories) {
        this.jdbc = jdbc;
        this.holds = holds;
        this.outbox = outbox;
        this.categories = categories;
    }

    /**
     * Sells the hold's seats to an order, inside the caller's transaction. Sells when every seat is still held by
     * this hold (even past its deadline) or free again; otherwise sells nothing and returns SEATS_GONE.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public SaleOutcome sell(EventId event, HoldId hold, UUID orderId) {
        List<String> ids =
                holds.lockForSale(event, hold).stream().map(SeatId::value).toList();
        int eligible = jdbc.sql("SELECT count(*) FROM seats WHERE event_id = :e AND seat_id IN (:ids) AND "
                        + SeatConditions.SELLABLE_TO_HOLD)
                .param("e", event.value())
                .param("ids", ids)
                .param("h", hold.value())
                .query(Integer.class)
                .single();
        if (eligible != ids.size()) {
            // Another shopper has a live hold on (or bought) a seat after this hold lapsed.
            holds.expireOvertaken(hold);
            return SaleOutcome.SEATS_GONE;
        }
        int sold = jdbc.sql("UPDATE seats SET state = :sold, order_id = :o, hold_id = NULL, held_until = NULL "
                        + "WHERE event_id = :e AND seat_id IN (:ids) AND " + SeatConditions.SELLABLE_TO_HOLD)
                .param("sold", SeatState.SOLD.name())
                .param("o", orderId)
                .param("e", event.value())
                .param("ids", ids)
                .param("h", hold.value())
                .update();
        if (sold != ids.size()) {
            throw new IllegalStateException("locked seats changed during a sale");
        }
        for (String seat : ids) {
            // Primary key (event_id, seat_id): a second sale of a seat fails here and rolls everything back.
            jdbc.sql("INSERT INTO sold_seats (event_id, seat_id, order_id) VALUES (:e, :s, :o)")
                    .param("e", event.value())
                    .param("s", seat)
                    .param("o", orderId)
                    .update();
        }
        holds.markConverted(hold);
        // Seats sold from a lapsed hold or free again were takeable until now: their category may have run out.
        categories.seatsChanged(event, ids);
        soldOutSeats(event).ifPresent(seats -> {
            categories.soldOut(event);
            outbox.soldOut(event, seats);
        });
        return SaleOutcome.SOLD;
    }

    /**
     * Events with seats, none of them unsold, and no sold-out signal for this many seats yet (a sale's own check can
     * race; an event whose inventory grew after it sold out sells out anew). The seats are counted from
     * {@code seat_categories}, which every inventory change keeps equal to the event's {@code seats} rows.
     */
    @Transactional
    public int signalSoldOutEvents() {
        record SoldOut(String event, long seats) {}
        List<SoldOut> events = jdbc.sql("""
                SELECT c.event_id, sum(c.seat_count) AS seats FROM seat_categories c
                GROUP BY c.event_id
                HAVING sum(c.seat_count) > 0
                  AND NOT EXISTS (SELECT 1 FROM coordinator_outbox o
                                  WHERE o.dedup_key = 'SOLD_OUT:' || c.event_id || ':' || sum(c.seat_count))
                  AND NOT EXISTS (SELECT 1 FROM seats s WHERE s.event_id = c.event_id AND %s)
                """.formatted(SeatConditions.UNSOLD))
                .query((rs, n) -> new SoldOut(rs.getString("event_id"), rs.getLong("seats")))
                .list();
        events.forEach(e -> {
            categories.soldOut(EventId.of(e.event()));
            outbox.soldOut(EventId.of(e.event()), e.seats());
        });
        return events.size();
    }

    /** The event's number of seats when it has some and every one is sold; one statement, so one snapshot. */
    private OptionalLong soldOutSeats(EventId event) {
        return jdbc.sql("""
                SELECT sum(seat_count) FROM seat_categories WHERE event_id = :e
                HAVING sum(seat_count) > 0 AND NOT EXISTS (SELECT 1 FROM seats WHERE event_id = :e AND %s)
                """.formatted(SeatConditions.UNSOLD))
                .param("e", event.value())
                .query(Long.class)
                .optional()
                .map(OptionalLong::of)
                .orElse(OptionalLong.empty());
    }
}
