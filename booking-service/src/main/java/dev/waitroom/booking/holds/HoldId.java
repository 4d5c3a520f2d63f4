package dev.waitroom.booking.holds;

import java.util.Objects;
import java.util.UUID;

/** Identifies one seat hold (a reservation with a deadline). */
public record HoldId(UUID value) {

    public HoldId {
        Objects.requireNonNull(value, "hold id");
    }

    public static HoldId random() {
        return new HoldId(UUID.randomUUID());
    }

    /** Parses the canonical UUID form; anything else is malformed. */
    public static HoldId parse(String text) {
        if (text == null || text.length() != 36) {
            throw new IllegalArgumentException("malformed hold id");
        }
        try {
            return new HoldId(UUID.fromString(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed hold id");
        }
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
