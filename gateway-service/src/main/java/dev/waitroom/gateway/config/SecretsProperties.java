package dev.waitroom.gateway.config;

import dev.waitroom.contract.ServiceCredential;
import dev.waitroom.contract.WaitroomService;
import dev.waitroom.contract.ops.ConfiguredOperator;
import dev.waitroom.contract.ops.OperatorCredentials;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorCookieCodec;
import jakarta.validation.constraints.NotBlank;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.ConstructorBinding;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The gateway's secrets. None has a default: an empty value stops the service at start with the
 * property name in the message. {@link #toString()} never prints a value.
 *
 * @param opsToken the ops API's bearer token (operator {@code ops}); required unless named operators are configured
 * @param serviceCredential the gateway's own credential ({@code wrs_gateway_<secret>}), sent as
 *     {@code X-Waitroom-Internal} on every forwarded and internal call to Waitroom's services, which hold only its
 *     SHA-256 (docs/design/security/internal.md#who-may-call-what)
 * @param ticketKey base64 HMAC key of queue tickets (at least 32 bytes), the same value as the queue-service's
 * @param visitorKey base64 HMAC key of visitor cookies (at least 32 bytes), the same value as the queue-service's
 * @param opsTokenPrevious an ops token being rotated out, still accepted for operator {@code ops}
 * @param operators named operators, each with the SHA-256 of a token of their own and a role
 *     (docs/design/security/operators.md)
 * @param ticketKeyPrevious a ticket key being rotated out, still accepted for queue tickets (docs/design/security/keys.md)
 * @param visitorKeyPrevious a visitor key being rotated out, still accepted for visitor cookies
 *     (docs/design/security/keys.md)
 * @param internalToken the retired shared credential: a gateway that still has it refuses to start
 */
@Validated
@ConfigurationProperties("waitroom.security")
public record SecretsProperties(
        // required unless named operators are configured: checked in the constructor
        String opsToken,

        @NotBlank(message = "waitroom.security.service-credential (WAITROOM_SECURITY_SERVICECREDENTIAL) must be set")
        String serviceCredential,

        @NotBlank(message = "waitroom.security.ticket-key (WAITROOM_TICKET_KEY) must be set")
        String ticketKey,

        @NotBlank(message = "waitroom.security.visitor-key (WAITROOM_VISITOR_KEY) must be set")
        String visitorKey,

        // also accepted for the operator "ops" during a rotation
        String opsTokenPrevious,

        // named operators, each by the hash of a token of their own (docs/design/security/operators.md)
        @DefaultValue List<ConfiguredOperator> operators,

        // optional: the ticket key being rotated out, still accepted for queue tickets (docs/design/security/keys.md)
        String ticketKeyPrevious,

        // optional: the visitor key being rotated out, still accepted for visitor cookies
        // (docs/design/security/keys.md)
        String visitorKeyPrevious,

        // retired: refused when set, so a deployment notices it still hands out the shared credential
        String internalToken) {

    private static final int MIN_KEY_BYTES = HmacKey.MIN_SECRET_BYTES;

    @ConstructorBinding
    public SecretsProperties {
        operators = operators == null ? List.of() : List.copyOf(operators);
        if ((opsToken == null || opsToken.isBlank()) && operators.isEmpty()) {
            throw new IllegalArgumentException("waitroom.security.ops-token (WAITROOM_SECURITY_OPSTOKEN) must be set,"
                    + " or named operators configured (waitroom.security.operators)");
        }
        OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
        if (internalToken != null && !internalToken.isBlank()) {
            throw new IllegalArgumentException(
                    "waitroom.security.internal-token (WAITROOM_SECURITY_INTERNALTOKEN) is no"
                            + " longer used: every service has a credential of its own. Remove it and set the gateway's,"
                            + " waitroom.security.service-credential (WAITROOM_SECURITY_SERVICECREDENTIAL); its receivers hold"
                            + " its SHA-256 (docs/design/security/internal.md#who-may-call-what)");
        }
        serviceCredential = serviceCredential == null ? null : serviceCredential.strip();
        if (serviceCredential != null
                && !serviceCredential.isEmpty()
                && ServiceCredential.serviceOf(serviceCredential) != WaitroomService.GATEWAY) {
            throw new IllegalArgumentException("waitroom.security.service-credential"
                    + " (WAITROOM_SECURITY_SERVICECREDENTIAL) must be the gateway's own credential, wrs_gateway_<"
                    + ServiceCredential.SECRET_LENGTH + " characters of base64url> (docs/design/security/internal.md)");
        }
        requireKey("waitroom.security.ticket-key", ticketKey);
        requireKey("waitroom.security.visitor-key", visitorKey);
        ticketKeyPrevious = blankToNull(ticketKeyPrevious);
        visitorKeyPrevious = blankToNull(visitorKeyPrevious);
        requireKey("waitroom.security.ticket-key-previous", ticketKeyPrevious);
        requireKey("waitroom.security.visitor-key-previous", visitorKeyPrevious);
    }

    /** Without a previous ops token or named operators, as tests and tools build it. */
    public SecretsProperties(String opsToken, String serviceCredential, String ticketKey, String visitorKey) {
        this(opsToken, serviceCredential, ticketKey, visitorKey, null, List.of(), null, null, null);
    }

    /** Who may use the ops API: named operators and the plain ops token (operator {@code ops}), current and previous. */
    public OperatorCredentials operatorCredentials() {
        return OperatorCredentials.fromConfiguration(opsToken, opsTokenPrevious, operators);
    }

    public HmacKey ticketHmacKey() {
        return HmacKey.fromBase64(ticketKey);
    }

    public HmacKey visitorHmacKey() {
        return HmacKey.fromBase64(visitorKey);
    }

    /**
     * Checks queue tickets signed with {@code ticket-key} or, during a rotation, {@code ticket-key-previous} (the key
     * id in each ticket picks the one key to compute: one MAC per ticket either way). The gateway signs no ticket.
     */
    public QueueTicketCodec queueTicketCodec() {
        return ticketKeyPrevious == null
                ? QueueTicketCodec.of(ticketHmacKey())
                : QueueTicketCodec.of(ticketHmacKey(), HmacKey.fromBase64(ticketKeyPrevious));
    }

    /**
     * Signs visitor cookies with {@code visitor-key}; accepts cookies signed with it or, during a rotation, with
     * {@code visitor-key-previous} (the key id in the cookie picks the key: one MAC per cookie either way).
     */
    public VisitorCookieCodec visitorCookieCodec() {
        return visitorKeyPrevious == null
                ? VisitorCookieCodec.of(visitorHmacKey())
                : VisitorCookieCodec.of(visitorHmacKey(), HmacKey.fromBase64(visitorKeyPrevious));
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
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
        return "SecretsProperties[opsToken=***, serviceCredential=***, ticketKey=***, visitorKey=***, opsTokenPrevious=***,"
                + " operators=" + operators + ", ticketKeyPrevious=" + (ticketKeyPrevious == null ? "none" : "***")
                + ", visitorKeyPrevious=" + (visitorKeyPrevious == null ? "none" : "***") + "]";
    }
}
