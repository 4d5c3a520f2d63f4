package dev.waitroom.tokens;

import java.util.Base64;
import java.util.Objects;

/** A secret from configuration as base64: the standard or URL alphabet, padding optional. */
final class Base64Secret {

    private Base64Secret() {}

    /**
     * The decoded bytes; {@code what} names the secret in the message of an empty or malformed value, which never
     * echoes the value itself.
     */
    static byte[] decode(String base64, String what) {
        Objects.requireNonNull(base64, "base64");
        String trimmed = base64.strip();
        if (trimmed.isEmpty()) {
            throw new IllegalArgumentException(what + " is empty");
        }
        try {
            return trimmed.indexOf('-') >= 0 || trimmed.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(trimmed)
                    : Base64.getDecoder().decode(trimmed);
        } catch (IllegalArgumentException e) {
            // never echo the value: it is a secret
            throw new IllegalArgumentException(what + " is not valid base64");
        }
    }
}
