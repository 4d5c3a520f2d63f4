package dev.waitroom.tokens.internal;

import dev.waitroom.tokens.ModeStatement;
import dev.waitroom.tokens.RejectionReason;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The checks of a mode statement: those of an admission token up to the signature ({@link
 * AdmissionJwtParser#verifiedPayload}, with its own {@code typ}), then issuer, audience, event, mode, generation and
 * times. Not API: may change without notice.
 */
public final class ModeStatementParser {

    public static final String TYPE = "wr-mode+jwt";
    public static final String ISSUER = "waitroom-coordinator";
    public static final String AUDIENCE = "waitroom-gateway";

    private static final int MAX_MODE_CHARS = 32;

    private ModeStatementParser() {}

    public static ModeStatement parseAndVerify(
            String statement, AdmissionJwtParser.KeyLookup keys, String expectedEventId, Instant now, Duration skew) {
        Map<String, Object> claims = AdmissionJwtParser.verifiedPayload(statement, keys, TYPE);
        if (!ISSUER.equals(AdmissionJwtParser.text(claims, "iss"))) {
            throw AdmissionJwtParser.reject(RejectionReason.WRONG_ISSUER, "unexpected issuer");
        }
        AdmissionJwtParser.checkAudience(claims.get("aud"), AUDIENCE);
        String eventId = AdmissionJwtParser.text(claims, "evt");
        String mode = AdmissionJwtParser.text(claims, "mode");
        if (mode.length() > MAX_MODE_CHARS) {
            throw AdmissionJwtParser.reject(RejectionReason.MALFORMED, "mode too long");
        }
        long generation = AdmissionJwtParser.number(claims, "gen", Long.MAX_VALUE);
        Instant issuedAt =
                Instant.ofEpochSecond(AdmissionJwtParser.number(claims, "iat", AdmissionJwtParser.MAX_EPOCH_SECOND));
        Instant expiresAt =
                Instant.ofEpochSecond(AdmissionJwtParser.number(claims, "exp", AdmissionJwtParser.MAX_EPOCH_SECOND));
        if (!expiresAt.isAfter(issuedAt)) {
            throw AdmissionJwtParser.reject(RejectionReason.MALFORMED, "exp not after iat");
        }
        if (issuedAt.isAfter(now.plus(skew))) {
            throw AdmissionJwtParser.reject(RejectionReason.NOT_YET_VALID, "issued in the future");
        }
        if (!now.isBefore(expiresAt.plus(skew))) {
            throw AdmissionJwtParser.reject(RejectionReason.EXPIRED, "expired");
        }
        if (!eventId.equals(expectedEventId)) {
            throw AdmissionJwtParser.reject(RejectionReason.WRONG_EVENT, "statement is of another event");
        }
        return new ModeStatement(eventId, mode, generation, issuedAt, expiresAt);
    }
}
