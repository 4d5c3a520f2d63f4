package dev.waitroom.booking;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.booking.catalogue.SeatState;
import dev.waitroom.booking.holds.HoldState;
import dev.waitroom.booking.orders.OrderState;
import dev.waitroom.booking.orders.PaymentState;
import dev.waitroom.contract.EventId;
import org.junit.jupiter.api.Test;

/** The allowed transitions, written down once in the enums, are the ones the design names. */
class LifecycleTests {

    @Test
    void aSoldSeatNeverChangesAgain() {
        assertThat(SeatState.SOLD.next()).isEmpty();
        assertThat(SeatState.AVAILABLE.canMoveTo(SeatState.HELD)).isTrue();
        assertThat(SeatState.HELD.canMoveTo(SeatState.HELD))
                .as("a lapsed hold taken over")
                .isTrue();
        assertThat(SeatState.SOLD.canMoveTo(SeatState.AVAILABLE)).isFalse();
    }

    @Test
    void holdsEndOnceExceptALatePaymentConvertingAnExpiredHold() {
        assertThat(HoldState.ACTIVE.next())
                .containsExactlyInAnyOrder(HoldState.RELEASED, HoldState.EXPIRED, HoldState.CONVERTED);
        assertThat(HoldState.EXPIRED.next()).containsExactly(HoldState.CONVERTED);
        assertThat(HoldState.RELEASED.next()).isEmpty();
        assertThat(HoldState.CONVERTED.next()).isEmpty();
        assertThat(Lifecycle.sourcesOf(HoldState.CONVERTED))
                .as("what converting a hold expects")
                .containsExactlyInAnyOrder(HoldState.ACTIVE, HoldState.EXPIRED);
        assertThat(Lifecycle.sourcesOf(HoldState.RELEASED)).containsExactly(HoldState.ACTIVE);
    }

    @Test
    void ordersAndPaymentsAreDecidedOnce() {
        assertThat(OrderState.PENDING_PAYMENT.moveTo(OrderState.VOIDED)).isEqualTo(OrderState.VOIDED);
        for (OrderState done : new OrderState[] {OrderState.PAID, OrderState.PAYMENT_FAILED, OrderState.VOIDED}) {
            assertThat(done.next()).isEmpty();
            assertThatThrownBy(() -> done.moveTo(OrderState.PAID)).isInstanceOf(IllegalStateException.class);
        }
        assertThat(PaymentState.PENDING.next()).containsExactlyInAnyOrder(PaymentState.SUCCEEDED, PaymentState.FAILED);
        assertThatThrownBy(() -> PaymentState.SUCCEEDED.moveTo(PaymentState.FAILED))
                .isInstanceOf(IllegalStateException.class);
        assertThat(OrderState.live())
                .as("orders that decide their hold's seats")
                .containsExactlyInAnyOrder(OrderState.PENDING_PAYMENT, OrderState.PAID);
    }

    @Test
    void identifiersValidateThemselves() {
        assertThatThrownBy(() -> EventId.of("")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventId.of("a/b")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> EventId.of("x".repeat(65))).isInstanceOf(IllegalArgumentException.class);
        assertThat(EventId.of("summer-2026_main-stage").value()).isEqualTo("summer-2026_main-stage");
        assertThatThrownBy(() -> EventId.of("summer-2026.main"))
                .as("one rule for every service: no dots")
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dev.waitroom.booking.catalogue.SeatId.of("A 1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dev.waitroom.booking.holds.HoldId.parse("not-a-uuid"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> dev.waitroom.booking.orders.OrderId.parse("00000000-0000-0000-0000-00000000000"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
