package dev.waitroom.tokens;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A symmetric key for the HMAC-SHA256 formats (queue ticket, visitor cookie), with the id that is
 * written into every token so a verifier can pick the right key during rotation.
 *
 * @param keyId  {@code [A-Za-z0-9_-]{1,64}}
 * @param secret at least 32 bytes; copied in and out, never printed
 */
public record HmacKey(String keyId, byte[] secret) {

    /** Minimum secret length in bytes (the contract asks for 32 random bytes). */
    public static final int MIN_SECRET_BYTES = 32;

    private static final Pattern KEY_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    public HmacKey {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(secret, "secret");
        if (!KEY_ID.matcher(keyId).matches()) {
            throw new IllegalArgumentException("keyId must match [A-Za-z0-9_-]{1,64}");
        }
        if (secret.length < MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(
                    "HMAC secret must be at least " + MIN_SECRET_BYTES + " bytes, got " + secret.length);
        }
        secret = secret.clone();
    }

    /** A key whose id is derived from a hash of the secret, so every instance configured alike agrees on it. */
    public static HmacKey of(byte[] secret) {
        Objects.requireNonNull(secret, "secret");
        return new HmacKey(deriveKeyId(secret), secret);
    }

    /** Reads a base64 (standard or URL alphabet, padding optional) secret, e.g. {@code WAITROOM_TICKET_KEY}. */
    public static HmacKey fromBase64(String base64) {
        return of(Base64Secret.decode(base64, "HMAC secret"));
    }

    @Override
    public byte[] secret() {
        return secret.clone();
    }

    /** For the codecs in this library: no copy. */
    byte[] secretBytes() {
        return secret;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HmacKey that && keyId.equals(that.keyId) && MessageDigest.isEqual(secret, that.secret);
    }

    @Override
    public int hashCode() {
        return keyId.hashCode();
    }

    @Override
    public String toString() {
        return "HmacKey[keyId=" + keyId + ", secret=(" + secret.length + " bytes, hidden)]";
    }

    private static String deriveKeyId(byte[] secret) {
        try {
            MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
            // a label keeps the published id from being the bare hash of the secret
            sha256.update("waitroom-hmac-key-id:".getBytes(StandardCharsets.US_ASCII));
            byte[] digest = sha256.digest(secret);
            return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(digest, 6));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    }
}
