package dev.waitroom.tokens;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.Objects;

/**
 * The anonymous visitor identity: 16 random bytes as 22 characters of unpadded base64url.
 * Only the canonical encoding is accepted, so one identity has exactly one spelling.
 */
public record VisitorId(String value) {

    public static final int LENGTH = 22;

    private static final SecureRandom RANDOM = new SecureRandom();

    public VisitorId {
        Objects.requireNonNull(value, "value");
        if (!isValid(value)) {
            throw new IllegalArgumentException("visitor id must be 22 characters of canonical base64url (16 bytes)");
        }
    }

    public static VisitorId random() {
        byte[] bytes = new byte[16];
        RANDOM.nextBytes(bytes);
        return new VisitorId(Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** True when {@code candidate} is a well-formed visitor id; never throws. */
    public static boolean isValid(String candidate) {
        if (candidate == null || candidate.length() != LENGTH) {
            return false;
        }
        for (int i = 0; i < LENGTH; i++) {
            char c = candidate.charAt(i);
            boolean ok =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!ok) {
                return false;
            }
        }
        // 22 chars carry 132 bits; the last character's 4 low bits must be zero for 16 bytes
        char last = candidate.charAt(LENGTH - 1);
        int sextet = sextet(last);
        return (sextet & 0x0F) == 0;
    }

    @Override
    public String toString() {
        return value;
    }

    private static int sextet(char c) {
        if (c >= 'A' && c <= 'Z') {
            return c - 'A';
        }
        if (c >= 'a' && c <= 'z') {
            return c - 'a' + 26;
        }
        if (c >= '0' && c <= '9') {
            return c - '0' + 52;
        }
        return c == '-' ? 62 : 63;
    }
}
