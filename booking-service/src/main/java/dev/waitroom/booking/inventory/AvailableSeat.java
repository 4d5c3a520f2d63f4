package dev.waitroom.booking.inventory;

/** A seat that can be held now. */
public record AvailableSeat(String seatId, String category, long priceCents) {
}
