package dev.waitroom.contract;

import java.util.Locale;
import java.util.Optional;

/**
 * The services that call one another, each with a credential of its own ({@link ServiceCredential}); the wire name is
 * the one in the credential and in {@code waitroom.security.callers.<service>} and {@code waitroom.web.callers.<service>}
 * (docs/design/security/internal.md#who-may-call-what).
 */
public enum WaitroomService {
    GATEWAY("gateway"),
    QUEUE("queue"),
    COORDINATOR("coordinator"),
    BOOKING("booking");

    private final String wireName;

    WaitroomService(String wireName) {
        this.wireName = wireName;
    }

    public String wireName() {
        return wireName;
    }

    /** The service of this wire name, exactly as written (lower case); empty for any other text. */
    public static Optional<WaitroomService> fromWire(String name) {
        if (name == null) {
            return Optional.empty();
        }
        for (WaitroomService service : values()) {
            if (service.wireName.equals(name)) {
                return Optional.of(service);
            }
        }
        return Optional.empty();
    }

    /** The wire name in upper case, as in the environment variables ({@code WAITROOM_SECURITY_CALLERS_GATEWAY}). */
    public String environmentName() {
        return wireName.toUpperCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return wireName;
    }
}
