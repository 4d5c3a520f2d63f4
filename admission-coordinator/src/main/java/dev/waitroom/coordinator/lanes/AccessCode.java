package dev.waitroom.coordinator.lanes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Locale;

/**
 * An access code's text (docs/operating/lanes-and-access-codes.md): 24 symbols of an alphabet without the look-alikes
 * 0/O and 1/I (120 random bits), shown in four groups of six. What a visitor types is read without its separators
 * and case, so {@code abcdef-ghjklm ...} is the same code. Only its SHA-256 is stored; {@link #toString} never shows
 * it, so it cannot reach a log by accident.
 */
public final class AccessCode {

    static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

    static final int LENGTH = 24;

    /** Longer input is not a code: refused before it is hashed. */
    static final int MAX_INPUT = 64;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final String text;

    private AccessCode(String text) {
        this.text = text;
    }

    static AccessCode random() {
        StringBuilder s = new StringBuilder(LENGTH);
        for (int i = 0; i < LENGTH; i++) {
            s.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        }
        return new AccessCode(s.toString());
    }

    /** The code a visitor typed, or null when it cannot be one (a forged or mistyped code is refused the same). */
    static AccessCode parse(String typed) {
        if (typed == null || typed.length() > MAX_INPUT) {
            return null;
        }
        StringBuilder s = new StringBuilder(LENGTH);
        for (int i = 0; i < typed.length(); i++) {
            char c = typed.charAt(i);
            if (c == '-' || c == ' ') {
                continue;
            }
            char u = Character.toUpperCase(c);
            if (u > 127 || ALPHABET.indexOf(u) < 0) {
                return null;
            }
            s.append(u);
        }
        return s.length() == LENGTH ? new AccessCode(s.toString().toUpperCase(Locale.ROOT)) : null;
    }

    /** The code as handed to ops: four groups of six. */
    String display() {
        return text.substring(0, 6) + "-" + text.substring(6, 12) + "-" + text.substring(12, 18) + "-"
                + text.substring(18);
    }

    byte[] sha256() {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.US_ASCII));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "AccessCode[redacted]";
    }
}
