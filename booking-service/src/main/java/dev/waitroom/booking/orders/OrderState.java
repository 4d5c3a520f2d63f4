package dev.waitroom.booking.orders;

import java.util.EnumSet;
import java.util.Set;

/**
 * An order's lifecycle: {@code PENDING_PAYMENT -> PAID | PAYMENT_FAILED | VOIDED}. VOIDED means the payment
 * succeeded but the seats had gone to someone else after the hold lapsed: the payment is refunded.
 */
public enum OrderState {
    PENDING_PAYMENT, PAID, PAYMENT_FAILED, VOIDED;

    public Set<OrderState> next() {
        return this == PENDING_PAYMENT ? EnumSet.of(PAID, PAYMENT_FAILED, VOIDED) : EnumSet.noneOf(OrderState.class);
    }

    public OrderState transitionTo(OrderState target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("order cannot go from " + this + " to " + target);
        }
        return target;
    }
}
