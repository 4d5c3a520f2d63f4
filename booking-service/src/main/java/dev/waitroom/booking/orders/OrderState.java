package dev.waitroom.booking.orders;

import dev.waitroom.booking.Lifecycle;
import java.util.EnumSet;
import java.util.Set;

/**
 * An order's lifecycle: {@code PENDING_PAYMENT -> PAID | PAYMENT_FAILED | VOIDED}. VOIDED means the payment
 * succeeded but the seats had gone to someone else after the hold lapsed: the payment is refunded.
 */
public enum OrderState implements Lifecycle<OrderState> {
    PENDING_PAYMENT,
    PAID,
    PAYMENT_FAILED,
    VOIDED;

    @Override
    public Set<OrderState> next() {
        return this == PENDING_PAYMENT ? EnumSet.of(PAID, PAYMENT_FAILED, VOIDED) : EnumSet.noneOf(OrderState.class);
    }

    /**
     * An order under way or paid: its payment, not the shopper, decides the hold's seats. A hold has at most one
     * (the partial unique index {@code orders_one_live_per_hold}); a failed payment lets the shopper try again.
     */
    public static Set<OrderState> live() {
        return EnumSet.of(PENDING_PAYMENT, PAID);
    }
}
