package dev.waitroom.coordinator.integration;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * An integration credential as the shop holds it: {@code wric_<id>_<secret>}, the id 16 hex digits (8 random bytes:
 * the row to look up, shown in lists and logs), the secret 43 base64url characters (32 random bytes, shown once at
 * creation). Only the secret's SHA-256 is stored: a 256-bit random secret needs no slow hash, and a read of the table
 * yields nothing to sign in with. {@link #toString()} never shows the secret.
 */
public record IntegrationSecret(String credentialId, String secret) {

    public static final String PREFIX = "wric_";

    private static final int ID_LENGTH = 16;

    private static final int SECRET_LENGTH = 43;

    /** The exact length of a credential's text: anything else is refused before it is looked at. */
    public static final int LENGTH = PREFIX.length() + ID_LENGTH + 1 + SECRET_LENGTH;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A fresh credential. */
    static IntegrationSecret random() {
        byte[] id = new byte[ID_LENGTH / 2];
        byte[] secret = new byte[32];
        RANDOM.nextBytes(id);
        RANDOM.nextBytes(secret);
        return new IntegrationSecret(
                HexFormat.of().formatHex(id),
                Base64.getUrlEncoder().withoutPadding().encodeToString(secret));
    }

    /** The credential in {@code text} when it has the exact shape, else empty (nothing is looked up for it). */
    public static Optional<IntegrationSecret> parse(String text) {
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
        return Optional.of(new IntegrationSecret(text.substring(PREFIX.length(), idEnd), text.substring(idEnd + 1)));
    }

    /** What the shop is given once, and sends as {@code Authorization: Bearer}. */
    public String text() {
        return PREFIX + credentialId + "_" + secret;
    }

    /** The SHA-256 of the secret part, as stored. */
    byte[] sha256() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }

    @Override
    public String toString() {
        return "IntegrationSecret[" + credentialId + ", ****]";
    }
}
