package dev.waitroom.booking.catalogue;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * An event's seat categories and seats: defined (and grown, never shrunk) by operators, listed to shoppers with what
 * can be held now. Holding and selling seats is the work of {@code holds} and {@code sale}.
 */
@Service
public class Catalogue {

    private final JdbcClient jdbc;
    private final CatalogueProperties properties;
    private final CategoryReports reports;

    Catalogue(JdbcClient jdbc, CatalogueProperties properties, CategoryReports reports) {
        this.jdbc = jdbc;
        this.properties = properties;
        this.reports = reports;
    }

    /** Creates or grows an event's inventory. Idempotent: repeating it changes nothing; seats are never removed. */
    @Transactional
    public List<CategoryAvailability> define(EventId event, List<CategorySpec> categories) {
        for (CategorySpec category : categories) {
            Integer existing = jdbc.sql(
                            "SELECT seat_count FROM seat_categories WHERE event_id = :e AND name = :n FOR UPDATE")
                    .param("e", event.value())
                    .param("n", category.name())
                    .query(Integer.class)
                    .optional()
                    .orElse(null);
            if (existing != null && category.seats() < existing) {
                throw new ProblemException(
                        ProblemType.INVENTORY_CONFLICT,
                        "category " + category.name() + " already has " + existing + " seats; seats are never removed");
            }
            jdbc.sql("""
                    INSERT INTO seat_categories (event_id, name, price_cents, seat_count) VALUES (:e, :n, :p, :s)
                    ON CONFLICT (event_id, name) DO UPDATE
                    SET price_cents = EXCLUDED.price_cents, seat_count = EXCLUDED.seat_count, updated_at = now()
                    WHERE seat_categories.price_cents <> EXCLUDED.price_cents
                       OR seat_categories.seat_count <> EXCLUDED.seat_count
                    """)
                    .param("e", event.value())
                    .param("n", category.name())
                    .param("p", category.priceCents())
                    .param("s", category.seats())
                    .update();
            jdbc.sql("""
                    INSERT INTO seats (event_id, seat_id, category, state)
                    SELECT :e, :n || '-' || g, :n, :available FROM generate_series(1, :s) AS g
                    ON CONFLICT (event_id, seat_id) DO NOTHING
                    """)
                    .param("e", event.value())
                    .param("n", category.name())
                    .param("s", category.seats())
                    .param("available", SeatState.AVAILABLE.name())
                    .update();
        }
        // A category that grew has seats again; one defined without seats is sold out from the start.
        reports.categoriesChanged(
                event, categories.stream().map(CategorySpec::name).toList());
        return categories(event);
    }

    @Transactional(readOnly = true)
    public List<CategoryAvailability> categories(EventId event) {
        return jdbc.sql("""
                SELECT c.name, c.price_cents, c.seat_count,
                       (SELECT count(*) FROM seats s WHERE s.event_id = c.event_id AND s.category = c.name
                          AND %s) AS available
                FROM seat_categories c WHERE c.event_id = :e ORDER BY c.name
                """.formatted(SeatConditions.TAKEABLE))
                .param("e", event.value())
                .query((rs, n) -> new CategoryAvailability(
                        rs.getString("name"),
                        rs.getLong("price_cents"),
                        rs.getInt("seat_count"),
                        rs.getInt("available")))
                .list();
    }

    @Transactional(readOnly = true)
    public List<AvailableSeat> available(EventId event, Optional<String> category) {
        return jdbc.sql("""
                SELECT s.seat_id, s.category, c.price_cents
                FROM seats s JOIN seat_categories c ON c.event_id = s.event_id AND c.name = s.category
                WHERE s.event_id = :e AND (CAST(:c AS text) IS NULL OR s.category = :c)
                  AND %s
                ORDER BY s.category, length(s.seat_id), s.seat_id
                LIMIT :limit
                """.formatted(SeatConditions.TAKEABLE))
                .param("e", event.value())
                .param("c", category.orElse(null))
                .param("limit", properties.maxListedSeats())
                .query((rs, n) -> new AvailableSeat(rs.getString(1), rs.getString(2), rs.getLong(3)))
                .list();
    }

    /** For tests and operators: the seats of an event by state. */
    @Transactional(readOnly = true)
    public Map<SeatState, Integer> seatCounts(EventId event) {
        Map<SeatState, Integer> counts = new EnumMap<>(SeatState.class);
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
