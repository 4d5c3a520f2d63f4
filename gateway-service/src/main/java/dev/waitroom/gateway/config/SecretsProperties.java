package dev.waitroom.gateway.config;

import dev.waitroom.tokens.HmacKey;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's secrets. None has a default: an empty value stops the service at start with the
 * property name in the message. {@link #toString()} never prints a value.
 */
@Validated
@ConfigurationProperties("waitroom.security")
public record SecretsProperties(
        @NotBlank(message = "waitroom.security.ops-token (WAITROOM_OPS_TOKEN) must be set")
        String opsToken,

        @NotBlank(message = "waitroom.security.internal-token (WAITROOM_INTERNAL_TOKEN) must be set")
        String internalToken,

        @NotBlank(message = "waitroom.security.ticket-key (WAITROOM_TICKET_KEY) must be set")
        String ticketKey,

        @NotBlank(message = "waitroom.security.visitor-key (WAITROOM_VISITOR_KEY) must be set")
        String visitorKey) {

    private static final int MIN_KEY_BYTES = HmacKey.MIN_SECRET_BYTES;

    public SecretsProperties {
        requireKey("waitroom.security.ticket-key", ticketKey);
        requireKey("waitroom.security.visitor-key", visitorKey);
    }

    public HmacKey ticketHmacKey() {
        return HmacKey.fromBase64(ticketKey);
    }

    public HmacKey visitorHmacKey() {
        return HmacKey.fromBase64(visitorKey);
    }

    private static void requireKey(String name, String value) {
        if (value == null || value.isBlank()) {
            return; // reported by @NotBlank with the property name
        }
        try {
            HmacKey.fromBase64(value);
        } catch (IllegalArgumentException ex) {
            throw new IllegalArgumentException(
                    name + " must be base64 of at least " + MIN_KEY_BYTES + " random bytes: " + ex.getMessage());
        }
    }

    @Override
    public String toString() {
        return "SecretsProperties[opsToken=***, internalToken=***, ticketKey=***, visitorKey=***]";
    }
}
