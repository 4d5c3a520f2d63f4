package dev.waitroom.booking.catalogue;

import java.util.regex.Pattern;

/** One category of an inventory definition: seats {@code <name>-1 .. <name>-<seats>} at one price. */
public record CategorySpec(String name, int seats, long priceCents) {

    static final int MAX_SEATS = 100_000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_]{0,31}");

    public CategorySpec {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("category names are 1-32 letters, digits or '_'");
        }
        if (seats < 0 || seats > MAX_SEATS) {
            throw new IllegalArgumentException("a category has 0 to " + MAX_SEATS + " seats");
        }
        if (priceCents < 0 || priceCents > 100_000_000L) {
            throw new IllegalArgumentException("priceCents must be between 0 and 100000000");
        }
    }
}
