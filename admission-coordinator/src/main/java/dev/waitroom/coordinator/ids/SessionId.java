package dev.waitroom.coordinator.ids;

import java.util.Objects;
import java.util.UUID;

/**
 * A shopping session's identifier: made when an offer is claimed, named in the registry key and the admission
 * token's {@code sid}, and by booking when a purchase completes.
 */
public record SessionId(UUID value) {

    public SessionId {
        Objects.requireNonNull(value, "session id");
    }

    public static SessionId random() {
        return new SessionId(UUID.randomUUID());
    }

    /** Reads a session id as booking sends it; {@link IllegalArgumentException} when it is not a UUID. */
    public static SessionId parse(String text) {
        return new SessionId(UUID.fromString(Objects.requireNonNull(text, "session id")));
    }

    @Override
    public String toString() {
        return this.value.toString();
    }
}
