package dev.waitroom.booking.holds;

import java.util.Objects;

/** The shopping session (and its visitor binding) a hold or order belongs to. Never logged. */
public record HoldOwner(String sessionId, String visitor) {

    public HoldOwner {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(visitor, "visitor");
    }

    @Override
    public String toString() {
        return "HoldOwner[***]";
    }
}
