package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * When the queue-service first accepted an event's state: from then on its draw commitment and its sale rules are
 * public ({@link SaleRule}). Recorded once per event; the row keeps the first time.
 */
@Repository
class Publications {

    private final JdbcClient jdbc;

    Publications(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /** Records the first publication; a repeat changes nothing. */
    void markPublished(EventId id) {
        this.jdbc.sql("""
                update events set commitment_published_at = now()
                where event_id = :id and commitment_published_at is null
                """).param("id", id.value()).update();
    }

    /** Whether the event's commitment and rules have been published; false for an unknown event. */
    boolean published(EventId id) {
        return this.jdbc
                .sql("select commitment_published_at is not null from events where event_id = :id")
                .param("id", id.value())
                .query(Boolean.class)
                .optional()
                .orElse(false);
    }
}
