package dev.waitroom.coordinator.keys;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Signing-key rotation timing. {@code publishLead}: how long a NEXT key is published before it signs (longer than
 * any verifier's JWKS cache). {@code retireAfter}: how long a retired key stays published (longer than any token's
 * lifetime plus skew).
 */
@ConfigurationProperties("waitroom.keys")
public record KeysProperties(
        @DefaultValue("60s") Duration publishLead,
        @DefaultValue("25h") Duration retireAfter,
        @DefaultValue("1s") Duration cacheFor) {

    public KeysProperties {
        if (publishLead.isNegative() || retireAfter.isNegative() || cacheFor.isNegative()) {
            throw new IllegalArgumentException("waitroom.keys durations must not be negative");
        }
    }
}
