package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.tokens.AdmissionHeader;

/**
 * What the admission filter checked for one request it let through, unsigned: the {@code Waitroom-Admission} header
 * ({@link AdmissionHeaderGlobalFilter}) states exactly this to the origin, for exactly this method and raw path.
 *
 * @param path the raw path as received (percent-encoding kept, no query)
 */
record CheckedRequest(
        String eventId,
        String sessionId,
        String visitor,
        long saleGeneration,
        AdmissionHeader.Scope scope,
        String method,
        String path) {}
