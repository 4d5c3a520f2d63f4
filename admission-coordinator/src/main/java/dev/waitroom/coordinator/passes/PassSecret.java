package dev.waitroom.coordinator.passes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * A staff or partner pass as its holder has it: {@code wrp_<id>_<secret>}, the id 16 hex digits (8 random bytes: the
 * row to look up, shown in lists and the audit), the secret 43 base64url characters (32 random bytes, shown once at
 * issue). Only the secret's SHA-256 is stored, as for integration credentials: a 256-bit random secret needs no slow
 * hash. {@link #toString()} never shows the secret.
 */
public record PassSecret(String passId, String secret) {

    public static final String PREFIX = "wrp_";

    private static final int ID_LENGTH = 16;

    private static final int SECRET_LENGTH = 43;

    /** The exact length of a pass's text: anything else is refused before it is looked at. */
    public static final int LENGTH = PREFIX.length() + ID_LENGTH + 1 + SECRET_LENGTH;

    private static final SecureRandom RANDOM = new SecureRandom();

    static PassSecret random() {
        byte[] id = new byte[ID_LENGTH / 2];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new PassSecret(
                HexFormat.of().formatHex(id),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** The pass in {@code text} when it has the exact shape, else empty (nothing is looked up for it). */
    public static Optional<PassSecret> parse(String text) {
        if (text == null || text.length() != LENGTH || !text.startsWith(PREFIX)) {
            return Optional.empty();
        }
        int idEnd = PREFIX.length() + ID_LENGTH;
        if (text.charAt(idEnd) != '_') {
            return Optional.empty();
        }
        for (int i = PREFIX.length(); i < idEnd; i++) {
            char c = text.charAt(i);
            if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
                return Optional.empty();
            }
        }
        for (int i = idEnd + 1; i < LENGTH; i++) {
            char c = text.charAt(i);
            boolean base64url =
                    (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!base64url) {
                return Optional.empty();
            }
        }
        return Optional.of(new PassSecret(text.substring(PREFIX.length(), idEnd), text.substring(idEnd + 1)));
    }

    /** What the holder is given once, and presents in {@code Waitroom-Pass}. */
    public String text() {
        return PREFIX + passId + "_" + secret;
    }

    byte[] sha256() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return "PassSecret[" + passId + ", ****]";
    }
}
