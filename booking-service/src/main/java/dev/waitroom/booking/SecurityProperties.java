package dev.waitroom.booking;

import java.util.Base64;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The booking service's own secret (the web kit's {@code WebKitProperties} holds the ops and internal tokens). It has
 * no default: a missing one stops the service at start-up with a message naming the environment variable.
 * {@link #toString()} never shows the value.
 *
 * @param webhookSecret base64 of at least 32 random bytes: HMAC-SHA256 key of payment webhooks
 *                      ({@code WAITROOM_SECURITY_WEBHOOKSECRET})
 */
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(String webhookSecret) {

    public SecurityProperties {
        if (webhookSecret == null || webhookSecret.isBlank()) {
            throw new IllegalArgumentException("waitroom.security.webhook-secret (WAITROOM_SECURITY_WEBHOOKSECRET) is "
                    + "required and has no default; set it before starting");
        }
        byte[] key;
        try {
            key = Base64.getDecoder().decode(webhookSecret.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("waitroom.security.webhook-secret must be base64");
        }
        if (key.length < 32) {
            throw new IllegalArgumentException("waitroom.security.webhook-secret must be base64 of at least 32 bytes");
        }
    }

    /** The raw HMAC key of payment webhooks. */
    public byte[] webhookKey() {
        return Base64.getDecoder().decode(webhookSecret.trim());
    }

    @Override
    public String toString() {
        return "SecurityProperties[webhookSecret=***]";
    }
}
