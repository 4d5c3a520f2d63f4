package dev.waitroom.booking.orders;

/** What the provider reports for a payment attempt. */
public enum PaymentOutcome {
    SUCCEEDED,
    FAILED
}
