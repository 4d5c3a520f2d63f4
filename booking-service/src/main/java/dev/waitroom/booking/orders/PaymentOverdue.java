package dev.waitroom.booking.orders;

/**
 * A payment attempt had no outcome for longer than the reconciliation bound and the provider must be asked about it
 * again (published in the transaction that claimed it, delivered after commit).
 *
 * @param reconciliation how many times this attempt has been asked about again, this one included
 */
public record PaymentOverdue(PaymentAttemptId attemptId, OrderId orderId, long amountCents, int reconciliation) {}
