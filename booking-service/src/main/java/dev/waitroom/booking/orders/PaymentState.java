package dev.waitroom.booking.orders;

import dev.waitroom.booking.Lifecycle;
import java.util.EnumSet;
import java.util.Set;

/** A payment attempt's lifecycle: {@code PENDING -> SUCCEEDED | FAILED}, decided by the provider's webhook. */
public enum PaymentState implements Lifecycle<PaymentState> {
    PENDING,
    SUCCEEDED,
    FAILED;

    @Override
    public Set<PaymentState> next() {
        return this == PENDING ? EnumSet.of(SUCCEEDED, FAILED) : EnumSet.noneOf(PaymentState.class);
    }
}
