package dev.waitroom.booking.catalogue;

/** A seat that can be held now. */
public record AvailableSeat(String seatId, String category, long priceCents) {}
