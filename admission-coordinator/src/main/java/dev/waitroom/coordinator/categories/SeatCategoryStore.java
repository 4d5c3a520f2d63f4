package dev.waitroom.coordinator.categories;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.event.SoldOutCategories;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/** The sold-out seat categories of each event (table {@code sold_out_categories}), one row per name in booking's order. */
@Repository
class SeatCategoryStore implements SoldOutCategories {

    private final JdbcClient jdbc;

    SeatCategoryStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public List<String> of(EventId id) {
        return this.jdbc
                .sql("select name from sold_out_categories where event_id = :id order by position")
                .param("id", id.value())
                .query(String.class)
                .list();
    }

    /**
     * Locks the event row for the rest of the transaction, so that reports for one event replace the list one after
     * the other; false when there is no such event.
     */
    boolean lockEvent(EventId id) {
        return this.jdbc
                .sql("select event_id from events where event_id = :id for update")
                .param("id", id.value())
                .query(String.class)
                .optional()
                .isPresent();
    }

    /** Replaces the event's list; call with the event row locked ({@link #lockEvent}). */
    void replace(EventId id, List<String> names) {
        this.jdbc
                .sql("delete from sold_out_categories where event_id = :id")
                .param("id", id.value())
                .update();
        for (int i = 0; i < names.size(); i++) {
            this.jdbc
                    .sql("insert into sold_out_categories (event_id, position, name) values (:id, :position, :name)")
                    .param("id", id.value())
                    .param("position", i)
                    .param("name", names.get(i))
                    .update();
        }
    }
}
