package dev.waitroom.coordinator.grants;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The browser's claim key, sent as {@code Idempotency-Key} with a claim (docs/design/architecture.md#identity): a random value
 * the waiting page keeps in its own storage, never in a cookie, so a copied visitor cookie does not carry it. Only its
 * SHA-256 is stored with the grant. {@link #toString()} hides it.
 */
public record ClaimKey(String value) {

    /** 16 to 128 characters of base64url, hex or a UUID's: enough entropy, nothing to escape. */
    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9_-]{16,128}");

    public ClaimKey {
        Objects.requireNonNull(value, "claim key");
        if (!isValid(value)) {
            throw new IllegalArgumentException("A claim key is 16 to 128 characters of A-Z, a-z, 0-9, '-' and '_'");
        }
    }

    public static boolean isValid(String value) {
        return value != null && FORMAT.matcher(value).matches();
    }

    /** What the grant stores: the hex SHA-256 of the key. */
    String digest() {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(this.value.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is a required JDK algorithm", ex);
        }
    }

    @Override
    public String toString() {
        return "ClaimKey[hidden]";
    }
}
