package dev.waitroom.booking;

import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The booking service's secrets. None has a default: a missing one stops the service at start-up with a message
 * naming the environment variable. {@link #toString()} never shows a value.
 *
 * @param opsToken       bearer credential for {@code /admin/**} ({@code WAITROOM_OPS_TOKEN})
 * @param internalToken  value of {@code X-Waitroom-Internal} on calls to the coordinator ({@code WAITROOM_INTERNAL_TOKEN})
 * @param webhookSecret  base64 of at least 32 random bytes: HMAC-SHA256 key of payment webhooks ({@code WAITROOM_WEBHOOK_SECRET})
 */
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(String opsToken, String internalToken, String webhookSecret) {

    public SecurityProperties {
        require(opsToken, "waitroom.security.ops-token (WAITROOM_OPS_TOKEN)");
        require(internalToken, "waitroom.security.internal-token (WAITROOM_INTERNAL_TOKEN)");
        require(webhookSecret, "waitroom.security.webhook-secret (WAITROOM_WEBHOOK_SECRET)");
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

    /** Compares a presented ops token in constant time. */
    public boolean isOpsToken(String presented) {
        return presented != null && MessageDigest.isEqual(
                presented.getBytes(StandardCharsets.UTF_8), opsToken.getBytes(StandardCharsets.UTF_8));
    }

    private static void require(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " is required and has no default; set it before starting");
        }
    }

    @Override
    public String toString() {
        return "SecurityProperties[opsToken=***, internalToken=***, webhookSecret=***]";
    }
}
