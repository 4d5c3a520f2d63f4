package dev.waitroom.booking.inventory;

import java.util.Objects;

/** A seat in a hold, with the price of its category. */
public record HeldSeat(SeatId seatId, String category, long priceCents) {

    public HeldSeat {
        Objects.requireNonNull(seatId, "seatId");
        Objects.requireNonNull(category, "category");
    }
}
