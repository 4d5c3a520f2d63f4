package dev.waitroom.verifier;

import java.time.Instant;

/**
 * What a valid {@code Waitroom-Admission} header says (docs/integration/admission-header.md).
 *
 * @param eventId        {@code evt}
 * @param sessionId      {@code sid}: the shopping session
 * @param visitor        {@code sub}: the visitor binding, a random id (not personal data)
 * @param saleGeneration {@code gen}
 * @param scope          {@code scp}: {@code shopping}, {@code order-status} or {@code bypass}
 * @param method         {@code htm}
 * @param path           {@code htp}
 * @param issuedAt       {@code iat}
 * @param expiresAt      {@code exp}
 * @param keyId          the {@code kid} that signed it
 */
public record VerifiedAdmission(
        String eventId,
        String sessionId,
        String visitor,
        long saleGeneration,
        String scope,
        String method,
        String path,
        Instant issuedAt,
        Instant expiresAt,
        String keyId) {

    /** The request attribute the servlet filter leaves a verified admission in. */
    public static final String ATTRIBUTE = VerifiedAdmission.class.getName();
}
