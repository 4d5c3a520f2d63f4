package dev.waitroom.booking.outbox;

import dev.waitroom.contract.EventId;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Propagation;
import org.springframework.transaction.annotation.Transactional;

/**
 * Signals owed to the coordinator, written in the same transaction as the change that causes them (a sale, a
 * completed order) so none is lost, each at most once (a dedup key), delivered and retried by the signal ticker. The
 * event's CATEGORIES signal is the exception: one row re-armed by every change it reports.
 */
@Component
public class CoordinatorOutbox {

    private final JdbcClient jdbc;

    CoordinatorOutbox(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The event sold out with {@code seats} seats in all: once per sold-out, not once per event. Seats are never
     * removed, so an event that sells out again after its inventory grew (a new round of the sale) has more seats and
     * signals again; the dedup key is {@code SOLD_OUT:<event>:<seats>} (the sold-out sweep looks for the same key).
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void soldOut(EventId event, long seats) {
        enqueue(SignalKind.SOLD_OUT, event, null, null, SignalKind.SOLD_OUT.name() + ":" + event.value() + ":" + seats);
    }

    /**
     * A category of the event ran out of seats that can be taken, or has some again: (re-)arms the event's one
     * CATEGORIES signal. A busy sale coalesces into that row; the counts are read when it is delivered, and a re-arm
     * while a report is in flight bumps the revision so the report is sent again rather than marked delivered.
     */
    @Transactional(propagation = Propagation.MANDATORY)
    public void categoriesChanged(EventId event) {
        jdbc.sql("""
                INSERT INTO coordinator_outbox (signal_id, kind, event_id, dedup_key)
                VALUES (:id, :kind, :event, :dedup)
                ON CONFLICT (dedup_key) DO UPDATE
                SET revision = coordinator_outbox.revision + 1, delivered_at = NULL, refused_at = NULL,
                    refused_status = NULL
                """)
                .param("id", UUID.randomUUID())
                .param("kind", SignalKind.CATEGORIES.name())
                .param("event", event.value())
                .param("dedup", SignalKind.CATEGORIES.name() + ":" + event.value())
                .update();
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void purchaseCompleted(EventId event, String sessionId, UUID orderId) {
        enqueue(SignalKind.PURCHASE_COMPLETED, event, sessionId, orderId, "PURCHASE_COMPLETED:" + orderId);
    }

    private void enqueue(SignalKind kind, EventId event, String sessionId, UUID orderId, String dedupKey) {
        jdbc.sql("""
                INSERT INTO coordinator_outbox (signal_id, kind, event_id, session_id, order_id, dedup_key)
                VALUES (:id, :kind, :event, :session, :order, :dedup)
                ON CONFLICT (dedup_key) DO NOTHING
                """)
                .param("id", UUID.randomUUID())
                .param("kind", kind.name())
                .param("event", event.value())
                .param("session", sessionId)
                .param("order", orderId)
                .param("dedup", dedupKey)
                .update();
    }

    public List<PendingSignal> pending(int limit) {
        return jdbc.sql("""
                SELECT signal_id, kind, event_id, session_id, order_id, attempts, revision
                FROM coordinator_outbox WHERE delivered_at IS NULL AND refused_at IS NULL ORDER BY created_at LIMIT :limit
                """)
                .param("limit", limit)
                .query((rs, n) -> new PendingSignal(
                        rs.getObject("signal_id", UUID.class),
                        SignalKind.valueOf(rs.getString("kind")),
                        EventId.of(rs.getString("event_id")),
                        rs.getString("session_id"),
                        rs.getObject("order_id", UUID.class),
                        rs.getInt("attempts"),
                        rs.getInt("revision")))
                .list();
    }

    /**
     * Marks a signal delivered; a second delivery of the same signal changes nothing, nor does the delivery of a
     * revision that was re-armed since it was read (it stays owed).
     */
    public boolean delivered(PendingSignal signal) {
        return jdbc.sql("UPDATE coordinator_outbox SET delivered_at = now(), attempts = attempts + 1 "
                                + "WHERE signal_id = :id AND revision = :revision AND delivered_at IS NULL")
                        .param("id", signal.id())
                        .param("revision", signal.revision())
                        .update()
                == 1;
    }

    /**
     * The coordinator refused the signal for good (a 4xx answer): it is kept for the record, never resent (unless a
     * CATEGORIES signal is re-armed by a later change).
     */
    public void refused(PendingSignal signal, int status) {
        jdbc.sql(
                        "UPDATE coordinator_outbox SET refused_at = now(), refused_status = :status, attempts = attempts + 1 "
                                + "WHERE signal_id = :id AND revision = :revision AND delivered_at IS NULL AND refused_at IS NULL")
                .param("id", signal.id())
                .param("revision", signal.revision())
                .param("status", status)
                .update();
    }

    public void failed(PendingSignal signal) {
        jdbc.sql("UPDATE coordinator_outbox SET attempts = attempts + 1 WHERE signal_id = :id AND delivered_at IS NULL")
                .param("id", signal.id())
                .update();
    }
}
