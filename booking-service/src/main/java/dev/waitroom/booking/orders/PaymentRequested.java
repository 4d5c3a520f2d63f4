package dev.waitroom.booking.orders;

/** An order was created and its payment attempt must go to the provider (published after commit). */
public record PaymentRequested(PaymentAttemptId attemptId, OrderId orderId, long amountCents) {}
