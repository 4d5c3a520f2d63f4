package dev.waitroom.coordinator.ids;

import java.util.Objects;
import java.util.UUID;

/** A grant's identifier: the grants row's key, the queue entry's offer and the admission token's {@code gid}. */
public record GrantId(UUID value) {

    public GrantId {
        Objects.requireNonNull(value, "grant id");
    }

    public static GrantId random() {
        return new GrantId(UUID.randomUUID());
    }

    @Override
    public String toString() {
        return this.value.toString();
    }
}
