package dev.waitroom.tokens;

/**
 * Lifecycle of a signing key in a {@link KeyRing}: published before it signs, retired (still
 * published) after it stops signing, then removed once every token it signed has expired; or revoked
 * in an emergency, which unpublishes it at once.
 */
public enum KeyState {
    /** Published in the JWKS, not yet signing. */
    NEXT,
    /** Published and signing. Exactly one key is ACTIVE. */
    ACTIVE,
    /** Published, no longer signing; removed by {@link KeyRing#retireOlderThan} or {@link KeyRing#removeRetired}. */
    RETIRED,
    /**
     * Unpublished at once and never trusted again ({@link KeyRing#revoke}); the ring keeps only the record (no key
     * material), for the ops view, until {@link KeyRing#removeRetired} forgets it.
     */
    REVOKED;

    /** The only transitions: NEXT to ACTIVE, ACTIVE to RETIRED, and any live state to REVOKED. */
    public boolean canBecome(KeyState target) {
        return switch (this) {
            case NEXT -> target == ACTIVE || target == REVOKED;
            case ACTIVE -> target == RETIRED || target == REVOKED;
            case RETIRED -> target == REVOKED;
            case REVOKED -> false;
        };
    }

    /** Whether a key in this state is in the JWKS (and so trusted by verifiers). */
    public boolean isPublished() {
        return this != REVOKED;
    }
}
