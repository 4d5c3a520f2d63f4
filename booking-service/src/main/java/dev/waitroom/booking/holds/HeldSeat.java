package dev.waitroom.booking.holds;

import dev.waitroom.booking.catalogue.SeatId;
import java.util.Objects;

/** A seat in a hold, with the price of its category. */
public record HeldSeat(SeatId seatId, String category, long priceCents) {

    public HeldSeat {
        Objects.requireNonNull(seatId, "seatId");
        Objects.requireNonNull(category, "category");
    }
}
