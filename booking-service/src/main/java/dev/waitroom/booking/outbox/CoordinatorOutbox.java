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
 * completed order) so none is lost, each at most once (a dedup key), delivered and retried by the signal ticker.
 */
@Component
public class CoordinatorOutbox {

    private final JdbcClient jdbc;

    CoordinatorOutbox(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    @Transactional(propagation = Propagation.MANDATORY)
    public void soldOut(EventId event) {
        enqueue(SignalKind.SOLD_OUT, event, null, null, "SOLD_OUT:" + event.value());
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
                SELECT signal_id, kind, event_id, session_id, order_id, attempts
                FROM coordinator_outbox WHERE delivered_at IS NULL AND refused_at IS NULL ORDER BY created_at LIMIT :limit
                """)
                .param("limit", limit)
                .query((rs, n) -> new PendingSignal(
                        rs.getObject("signal_id", UUID.class),
                        SignalKind.valueOf(rs.getString("kind")),
                        EventId.of(rs.getString("event_id")),
                        rs.getString("session_id"),
                        rs.getObject("order_id", UUID.class),
                        rs.getInt("attempts")))
                .list();
    }

    /** Marks a signal delivered; a second delivery of the same signal changes nothing. */
    public boolean delivered(UUID signalId) {
        return jdbc.sql("UPDATE coordinator_outbox SET delivered_at = now(), attempts = attempts + 1 "
                                + "WHERE signal_id = :id AND delivered_at IS NULL")
                        .param("id", signalId)
                        .update()
                == 1;
    }

    /** The coordinator refused the signal for good (a 4xx answer): it is kept for the record, never resent. */
    public void refused(UUID signalId, int status) {
        jdbc.sql("UPDATE coordinator_outbox SET refused_at = now(), refused_status = :status, attempts = attempts + 1 "
                        + "WHERE signal_id = :id AND delivered_at IS NULL AND refused_at IS NULL")
                .param("id", signalId)
                .param("status", status)
                .update();
    }

    public void failed(UUID signalId) {
        jdbc.sql("UPDATE coordinator_outbox SET attempts = attempts + 1 WHERE signal_id = :id AND delivered_at IS NULL")
                .param("id", signalId)
                .update();
    }
}
