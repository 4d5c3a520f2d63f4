package dev.waitroom.booking.payments;

import dev.waitroom.booking.orders.OrderId;
import dev.waitroom.booking.orders.Orders;
import dev.waitroom.booking.orders.PaymentApplied;
import dev.waitroom.booking.orders.PaymentAttemptId;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/**
 * Applies provider webhooks exactly once: the webhook id is recorded in the same transaction as its effect, so a
 * replay (even a concurrent one, which waits on the first insert) finds it and changes nothing.
 */
@Service
public class PaymentWebhooks {

    private final JdbcClient jdbc;
    private final Orders orders;

    PaymentWebhooks(JdbcClient jdbc, Orders orders) {
        this.jdbc = jdbc;
        this.orders = orders;
    }

    public record Result(
            String webhookId, String effect, boolean duplicate, Optional<OrderId> orderId, String orderState) {}

    @Transactional
    public Result apply(PaymentWebhook webhook) {
        PaymentAttemptId attempt = PaymentAttemptId.parse(webhook.paymentAttemptId());
        int fresh = jdbc.sql("""
                INSERT INTO processed_webhooks (webhook_id, attempt_id, outcome, effect)
                VALUES (:w, :p, :o, 'NONE') ON CONFLICT (webhook_id) DO NOTHING
                """)
                .param("w", webhook.webhookId())
                .param("p", attempt.value())
                .param("o", webhook.outcome().name())
                .update();
        if (fresh == 0) {
            String effect = jdbc.sql("SELECT effect FROM processed_webhooks WHERE webhook_id = :w")
                    .param("w", webhook.webhookId())
                    .query(String.class)
                    .single();
            return new Result(webhook.webhookId(), effect, true, Optional.empty(), null);
        }
        PaymentApplied applied = orders.applyPayment(attempt, webhook.outcome(), webhook.amountCents());
        jdbc.sql("UPDATE processed_webhooks SET effect = :effect WHERE webhook_id = :w")
                .param("effect", applied.effect().name())
                .param("w", webhook.webhookId())
                .update();
        return new Result(
                webhook.webhookId(),
                applied.effect().name(),
                false,
                Optional.of(applied.orderId()),
                applied.orderState().name());
    }
}
