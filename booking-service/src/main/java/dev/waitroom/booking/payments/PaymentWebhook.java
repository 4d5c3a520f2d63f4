package dev.waitroom.booking.payments;

import dev.waitroom.booking.orders.PaymentOutcome;
import java.time.Instant;
import java.util.regex.Pattern;

/**
 * The provider's callback body.
 *
 * @param webhookId        the provider's id of this notification; a replay carries the same id
 * @param paymentAttemptId the attempt the outcome is for
 */
public record PaymentWebhook(
        String webhookId, String paymentAttemptId, PaymentOutcome outcome, Long amountCents, Instant occurredAt) {

    private static final Pattern ID = Pattern.compile("[A-Za-z0-9._:-]{1,100}");

    public void validate() {
        if (webhookId == null || !ID.matcher(webhookId).matches()) {
            throw new IllegalArgumentException("webhookId is required (1-100 letters, digits, '.', '_', ':', '-')");
        }
        if (paymentAttemptId == null || outcome == null || amountCents == null || amountCents < 0) {
            throw new IllegalArgumentException("paymentAttemptId, outcome and a non-negative amountCents are required");
        }
    }
}
