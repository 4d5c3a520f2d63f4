package dev.waitroom.booking.catalogue;

import java.util.Objects;
import java.util.regex.Pattern;

/** A seat's id within its event, e.g. {@code FLOOR-12}: 1-64 letters, digits, '.', '_' or '-'. */
public record SeatId(String value) implements Comparable<SeatId> {

    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public SeatId {
        Objects.requireNonNull(value, "seat id");
        if (!SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("malformed seat id");
        }
    }

    public static SeatId of(String value) {
        return new SeatId(value);
    }

    @Override
    public int compareTo(SeatId other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
