package dev.waitroom.queue.config;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The secret the service needs besides its callers' hashes (which the web kit checks, from
 * {@code waitroom.security.callers.<service>}); it has no default, so a deployment that forgets it does not start.
 *
 * @param ticketKey base64 of at least 32 random bytes: HMAC key of the queue tickets the gateway verifies
 */
@Validated
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(
        @NotBlank(message = "waitroom.security.ticket-key (WAITROOM_TICKET_KEY) must be set")
        String ticketKey) {

    @Override
    public String toString() {
        return "SecurityProperties[ticketKey=***]";
    }
}
