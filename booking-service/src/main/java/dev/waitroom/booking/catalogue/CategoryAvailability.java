package dev.waitroom.booking.catalogue;

/** A seat category of an event with its price, its size and how many of its seats can be held now. */
public record CategoryAvailability(String name, long priceCents, int seats, int available) {}
