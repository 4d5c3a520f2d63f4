package dev.waitroom.queue.config;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Secrets the service needs; neither has a default, so a deployment that forgets one does not start.
 *
 * @param internalToken value of X-Waitroom-Internal on every call from the gateway and the coordinator
 * @param ticketKey base64 of at least 32 random bytes: HMAC key of the queue tickets the gateway verifies
 */
@Validated
@ConfigurationProperties("waitroom.security")
public record SecurityProperties(
        @NotBlank(message = "waitroom.security.internal-token (WAITROOM_INTERNAL_TOKEN) must be set") String internalToken,
        @NotBlank(message = "waitroom.security.ticket-key (WAITROOM_TICKET_KEY) must be set") String ticketKey) {

    @Override
    public String toString() {
        return "SecurityProperties[internalToken=***, ticketKey=***]";
    }
}
