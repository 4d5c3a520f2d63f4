package dev.waitroom.tokens;

import java.time.Instant;
import java.util.Objects;

/**
 * Public facts about one key of a {@link KeyRing} (for ops views and logs; no key material).
 *
 * @param activated null until the key became ACTIVE
 * @param retired   null until the key became RETIRED
 * @param revoked   null unless the key was REVOKED (then it is no longer published)
 */
public record SigningKeyInfo(
        String keyId, KeyState state, Instant created, Instant activated, Instant retired, Instant revoked) {

    public SigningKeyInfo {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(created, "created");
    }

    /** A key that was never revoked. */
    public SigningKeyInfo(String keyId, KeyState state, Instant created, Instant activated, Instant retired) {
        this(keyId, state, created, activated, retired, null);
    }
}
