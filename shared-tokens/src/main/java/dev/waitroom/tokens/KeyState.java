package dev.waitroom.tokens;

/**
 * Lifecycle of a signing key in a {@link KeyRing}: published before it signs, retired (still
 * published) after it stops signing, then removed once every token it signed has expired.
 */
public enum KeyState {
    /** Published in the JWKS, not yet signing. */
    NEXT,
    /** Published and signing. Exactly one key is ACTIVE. */
    ACTIVE,
    /** Published, no longer signing; removed by {@link KeyRing#retireOlderThan}. */
    RETIRED;

    /** The only transitions: NEXT to ACTIVE, ACTIVE to RETIRED. */
    public boolean canBecome(KeyState target) {
        return switch (this) {
            case NEXT -> target == ACTIVE;
            case ACTIVE -> target == RETIRED;
            case RETIRED -> false;
        };
    }
}
