package dev.waitroom.booking.orders;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Payment attempts with no outcome for longer than a bound, read from PostgreSQL (so a restarted service finds the
 * ones its predecessor was waiting on). Claiming one stamps it, so it is asked about again at most once per bound,
 * by one replica: the rows are taken {@code FOR UPDATE SKIP LOCKED}, and a row another claim stamped meanwhile is
 * re-checked against the bound before it is taken.
 */
@Service
public class OverduePayments {

    private final JdbcClient jdbc;
    private final ApplicationEventPublisher events;

    OverduePayments(JdbcClient jdbc, ApplicationEventPublisher events) {
        this.jdbc = jdbc;
        this.events = events;
    }

    /**
     * Claims up to {@code limit} attempts still PENDING that were created, and last asked about, more than {@code
     * after} ago, and publishes a {@link PaymentOverdue} for each (delivered after commit).
     */
    @Transactional
    public List<PaymentOverdue> claim(Duration after, int limit) {
        List<PaymentOverdue> claimed = jdbc.sql("""
                UPDATE payment_attempts pa
                SET reconciled_at = now(), reconciliations = pa.reconciliations + 1
                FROM (SELECT attempt_id FROM payment_attempts
                      WHERE state = :pending
                        AND created_at <= now() - make_interval(secs => :after)
                        AND (reconciled_at IS NULL OR reconciled_at <= now() - make_interval(secs => :after))
                      ORDER BY created_at
                      LIMIT :limit
                      FOR UPDATE SKIP LOCKED) due
                WHERE pa.attempt_id = due.attempt_id AND pa.state = :pending
                RETURNING pa.attempt_id, pa.order_id, pa.amount_cents, pa.reconciliations
                """)
                .param("pending", PaymentState.PENDING.name())
                .param("after", after.toMillis() / 1000.0)
                .param("limit", limit)
                .query((rs, n) -> new PaymentOverdue(
                        new PaymentAttemptId(rs.getObject(1, UUID.class)),
                        new OrderId(rs.getObject(2, UUID.class)),
                        rs.getLong(3),
                        rs.getInt(4)))
                .list();
        claimed.forEach(events::publishEvent);
        return claimed;
    }
}
