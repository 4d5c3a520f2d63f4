package dev.waitroom.booking;

import java.util.UUID;

/** The only text form the shop's UUID ids accept: the canonical 36 characters ({@link UUID#fromString} takes more). */
public final class CanonicalUuid {

    private CanonicalUuid() {}

    /** Parses {@code text}; anything else is an {@link IllegalArgumentException} "malformed {@code what}". */
    public static UUID parse(String text, String what) {
        if (text == null || text.length() != 36) {
            throw new IllegalArgumentException("malformed " + what);
        }
        try {
            return UUID.fromString(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("malformed " + what);
        }
    }
}
