package dev.waitroom.booking;

import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.ShopAssertionCodec;
import java.util.Base64;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The booking service's own secrets (the web kit's {@code WebKitProperties} holds the ops and internal tokens). The
 * required ones have no default: a missing one stops the service at start-up with a message naming the environment
 * variable. {@link #toString()} never shows a value.
 *
 * @param webhookSecret        base64 of at least 32 random bytes: HMAC-SHA256 key of payment webhooks
 *                             ({@code WAITROOM_SECURITY_WEBHOOKSECRET})
 * @param assertionKey         base64 of at least 32 random bytes: HMAC-SHA256 key of the gateway's per-request shop
 *                             assertions, the same value as the gateway's ({@code WAITROOM_SECURITY_ASSERTIONKEY})
 * @param assertionKeyPrevious optional: the key before a rotation, still accepted until every gateway signs with the
 *                             new one ({@code WAITROOM_SECURITY_ASSERTIONKEYPREVIOUS})
 */
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(String webhookSecret, String assertionKey, String assertionKeyPrevious) {

    public SecurityProperties {
        requireKey(webhookSecret, "waitroom.security.webhook-secret", "WAITROOM_SECURITY_WEBHOOKSECRET");
        requireHmacKey(assertionKey, "waitroom.security.assertion-key", "WAITROOM_SECURITY_ASSERTIONKEY");
        if (assertionKeyPrevious != null && !assertionKeyPrevious.isBlank()) {
            requireHmacKey(
                    assertionKeyPrevious,
                    "waitroom.security.assertion-key-previous",
                    "WAITROOM_SECURITY_ASSERTIONKEYPREVIOUS");
        }
    }

    /** The raw HMAC key of payment webhooks. */
    public byte[] webhookKey() {
        return decode(webhookSecret);
    }

    /** Verifies the gateway's shop assertions: the current key and, during a rotation, the previous one. */
    public ShopAssertionCodec shopAssertions() {
        HmacKey current = HmacKey.fromBase64(assertionKey);
        return assertionKeyPrevious == null || assertionKeyPrevious.isBlank()
                ? ShopAssertionCodec.of(current)
                : ShopAssertionCodec.of(current, HmacKey.fromBase64(assertionKeyPrevious));
    }

    private static void requireKey(String value, String property, String variable) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + " (" + variable + ") is required and has no default; set it "
                    + "to base64 of 32 random bytes before starting");
        }
        byte[] key;
        try {
            key = decode(value);
        } catch (IllegalArgumentException e) {
            // never echo the value: it is a secret
            throw new IllegalArgumentException(property + " (" + variable + ") must be base64");
        }
        if (key.length < HmacKey.MIN_SECRET_BYTES) {
            throw new IllegalArgumentException(
                    property + " (" + variable + ") must be base64 of at least " + HmacKey.MIN_SECRET_BYTES + " bytes");
        }
    }

    /** Read as the gateway reads it (standard or URL alphabet, padding optional). */
    private static void requireHmacKey(String value, String property, String variable) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(property + " (" + variable + ") is required and has no default; set it "
                    + "to base64 of 32 random bytes, the same value as the gateway's, before starting");
        }
        try {
            HmacKey.fromBase64(value);
        } catch (IllegalArgumentException e) {
            // HmacKey's messages never echo the value
            throw new IllegalArgumentException(property + " (" + variable + ") must be base64 of at least "
                    + HmacKey.MIN_SECRET_BYTES + " random bytes: " + e.getMessage());
        }
    }

    private static byte[] decode(String base64) {
        return Base64.getDecoder().decode(base64.trim());
    }

    @Override
    public String toString() {
        return "SecurityProperties[webhookSecret=***, assertionKey=***, assertionKeyPrevious="
                + (assertionKeyPrevious == null || assertionKeyPrevious.isBlank() ? "none" : "***") + "]";
    }
}
