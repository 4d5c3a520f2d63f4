package dev.waitroom.booking.orders;

/**
 * What applying a provider outcome did.
 *
 * @param effect PAID, VOIDED, PAYMENT_FAILED, or NONE when the attempt was already decided
 */
public record PaymentApplied(OrderId orderId, OrderState orderState, Effect effect) {

    public enum Effect {
        PAID,
        VOIDED,
        PAYMENT_FAILED,
        NONE
    }
}
