package dev.waitroom.tokens;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/** The rule for a text field of a signed statement: 1..max UTF-8 bytes, no control characters. */
final class BoundedText {

    private BoundedText() {}

    static void require(String value, String name, int maxBytes) {
        Objects.requireNonNull(value, name);
        // a char is at most three UTF-8 bytes: the byte count is needed only for a long value
        if (value.isEmpty()
                || (value.length() * 3 > maxBytes && value.getBytes(StandardCharsets.UTF_8).length > maxBytes)) {
            throw new IllegalArgumentException(name + " must be 1.." + maxBytes + " UTF-8 bytes");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException(name + " must not contain control characters");
            }
        }
    }
}
