package dev.waitroom.booking.orders;

import java.util.EnumSet;
import java.util.Set;

/** A payment attempt's lifecycle: {@code PENDING -> SUCCEEDED | FAILED}, decided by the provider's webhook. */
public enum PaymentState {
    PENDING, SUCCEEDED, FAILED;

    public Set<PaymentState> next() {
        return this == PENDING ? EnumSet.of(SUCCEEDED, FAILED) : EnumSet.noneOf(PaymentState.class);
    }

    public PaymentState transitionTo(PaymentState target) {
        if (!next().contains(target)) {
            throw new IllegalStateException("payment cannot go from " + this + " to " + target);
        }
        return target;
    }
}
