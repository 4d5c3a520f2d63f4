package dev.waitroom.booking.orders;

import dev.waitroom.booking.holds.HoldId;
import dev.waitroom.booking.holds.HoldOwner;
import dev.waitroom.contract.EventId;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** An order for the seats of one hold, with its latest payment attempt and, when voided, its refund. */
public record Order(
        OrderId id,
        EventId eventId,
        HoldId holdId,
        HoldOwner owner,
        OrderState state,
        long amountCents,
        List<String> seatIds,
        Instant createdAt,
        Instant updatedAt,
        Payment payment,
        Optional<Refund> refund) {

    public Order {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(state, "state");
        seatIds = List.copyOf(seatIds);
    }

    public record Payment(PaymentAttemptId attemptId, PaymentState state, long amountCents) {}

    public record Refund(long amountCents, String reason, Instant createdAt) {}
}
