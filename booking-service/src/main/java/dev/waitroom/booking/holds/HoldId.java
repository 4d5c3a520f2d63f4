package dev.waitroom.booking.holds;

import dev.waitroom.booking.CanonicalUuid;
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
        return new HoldId(CanonicalUuid.parse(text, "hold id"));
    }

    @Override
    public String toString() {
        return value.toString();
    }
}
