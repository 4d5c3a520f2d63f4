package dev.waitroom.tokens;

import java.time.Instant;
import java.util.Objects;

/**
 * Public facts about one key of a {@link KeyRing} (for ops views and logs; no key material).
 *
 * @param activated null until the key became ACTIVE
 * @param retired   null until the key became RETIRED
 */
public record SigningKeyInfo(String keyId, KeyState state, Instant created, Instant activated, Instant retired) {

    public SigningKeyInfo {
        Objects.requireNonNull(keyId, "keyId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(created, "created");
    }
}
