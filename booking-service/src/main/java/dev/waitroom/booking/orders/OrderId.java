package dev.waitroom.booking.orders;

import dev.waitroom.booking.CanonicalUuid;
import java.util.Objects;
import java.util.UUID;

/** Identifies one order: the seats of one hold and its payment attempts. */
public record OrderId(UUID value) {

    public OrderId {
        Objects.requireNonNull(value, "order id");
    }

    public static OrderId random() {
        return new OrderId(UUID.randomUUID());
    }

    /** Parses the canonical UUID form; anything else is malformed. */
    public static OrderId parse(String text) {
        return new OrderId(CanonicalUuid.parse(text, "order id"));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
