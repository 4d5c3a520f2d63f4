package dev.waitroom.tokens;

import java.time.Instant;
import java.util.Objects;

/**
 * The claims of an admission token (docs/reference/contracts.md#admission-token-shared-tokens). JWT times have second precision:
 * an issued token carries {@code issuedAt} and {@code expiresAt} truncated to the second.
 *
 * @param eventId        {@code evt}
 * @param saleGeneration {@code gen}, not negative
 * @param grantId        {@code gid}
 * @param sessionId      {@code sid}
 * @param visitor        {@code sub}, the visitor binding
 * @param issuedAt       {@code iat}
 * @param expiresAt      {@code exp}, after {@code issuedAt}
 * @param tokenId        {@code jti}
 */
public record AdmissionClaims(
        String eventId,
        long saleGeneration,
        String grantId,
        String sessionId,
        String visitor,
        Instant issuedAt,
        Instant expiresAt,
        String tokenId) {

    public AdmissionClaims {
        requireText(eventId, "eventId");
        requireText(grantId, "grantId");
        requireText(sessionId, "sessionId");
        requireText(visitor, "visitor");
        requireText(tokenId, "tokenId");
        if (saleGeneration < 0) {
            throw new IllegalArgumentException("saleGeneration must not be negative");
        }
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (!expiresAt.isAfter(issuedAt)) {
            throw new IllegalArgumentException("expiresAt must be after issuedAt");
        }
    }

    private static void requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be blank");
        }
    }
}
