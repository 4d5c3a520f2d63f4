package dev.waitroom.coordinator.passes;

/**
 * What a pass can do: only a {@link #VALID} one opens a session. Derived from the row (revoked, expiry, uses), never
 * stored, so it cannot disagree with them; a revoked pass stays revoked, an expired one expired.
 */
public enum PassState {
    VALID,
    USED_UP,
    EXPIRED,
    REVOKED
}
