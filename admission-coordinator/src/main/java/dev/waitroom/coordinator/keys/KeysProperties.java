package dev.waitroom.coordinator.keys;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Signing-key timing (docs/design/security/keys.md). {@code publishLead}: how long a NEXT key is published before it
 * signs (longer than any verifier's JWKS refresh). {@code retainRetired}: the least time a retired key stays published;
 * after it, the key goes as soon as no token it signed can still be valid (no session activated before it retired
 * has an absolute expiry ahead), so at most the longest session (24 h) after retirement. {@code cacheFor}: how long an
 * instance signs from its copy of the ring before it checks the database for a change (a rotation or a revoke made by
 * another instance).
 *
 * @param publishLead how long a new key is published in the JWKS before it signs; longer than any verifier's JWKS
 *     refresh
 * @param retainRetired the least time a retired key stays published; it goes once no token it signed can be valid
 * @param cacheFor how long an instance signs from its copy of the key ring before checking the database for a
 *     rotation or revoke
 */
@ConfigurationProperties("waitroom.keys")
public record KeysProperties(
        @DefaultValue("60s") Duration publishLead,
        @DefaultValue("60s") Duration retainRetired,
        @DefaultValue("1s") Duration cacheFor) {

    public KeysProperties {
        if (publishLead.isNegative() || retainRetired.isNegative() || cacheFor.isNegative()) {
            throw new IllegalArgumentException("waitroom.keys durations must not be negative");
        }
    }
}
