package dev.waitroom.booking;

import dev.waitroom.tokens.HmacKey;
import java.util.Base64;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The booking service's own secrets (the web kit's {@code WebKitProperties} holds the ops and internal tokens). The
 * required one has no default: a missing one stops the service at start-up with a message naming the environment
 * variable. {@link #toString()} never shows a value. Shop requests need no secret here: booking verifies the gateway's
 * {@code Waitroom-Admission} header with its public keys ({@code waitroom.verifier.*}, docs/design/security/booking.md).
 *
 * @param webhookSecret base64 of at least 32 random bytes: HMAC-SHA256 key of payment webhooks
 *                      ({@code WAITROOM_SECURITY_WEBHOOKSECRET})
 */
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(String webhookSecret) {

    public SecurityProperties {
        requireKey(webhookSecret, "waitroom.security.webhook-secret", "WAITROOM_SECURITY_WEBHOOKSECRET");
    }

    /** The raw HMAC key of payment webhooks. */
    public byte[] webhookKey() {
        return decode(webhookSecret);
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

    private static byte[] decode(String base64) {
        return Base64.getDecoder().decode(base64.trim());
    }

    @Override
    public String toString() {
        return "SecurityProperties[webhookSecret=***]";
    }
}
