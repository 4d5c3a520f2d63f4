package dev.waitroom.tokens;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * The coordinator's signed word on an event's operating mode (docs/design/security/signed-mode.md): the gateway
 * lets requests through without admission (BYPASS) only on a statement that verifies with the coordinator's published
 * keys, names the event, says BYPASS and has not expired. A queue-service, or anyone holding an internal credential,
 * can store any mode, but cannot sign one. Signed with {@link ModeStatementSigner}, checked with {@link
 * AdmissionTokenVerifier#verifyModeStatement}.
 *
 * @param eventId        the event the mode is of
 * @param mode           the operating mode's wire name ({@code QUEUEING}, {@code PAUSED}, {@code SOLD_OUT}, {@code
 *                       BYPASS})
 * @param saleGeneration the sale round it was signed in
 * @param issuedAt       when the coordinator signed it
 * @param expiresAt      after this it says nothing: a replayed statement lets in at most until then
 */
public record ModeStatement(String eventId, String mode, long saleGeneration, Instant issuedAt, Instant expiresAt) {

    /** The mode that lets anyone in, the only one the gateway needs a signature for. */
    public static final String BYPASS = "BYPASS";

    /**
     * How long a statement lives: several of the coordinator's pushes (every 3 s by default) fit in it, so a push or
     * two lost does not end a bypass, and a statement recorded during a bypass cannot reopen the shop for longer.
     */
    public static final Duration DEFAULT_TTL = Duration.ofSeconds(30);

    public ModeStatement {
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(issuedAt, "issuedAt");
        Objects.requireNonNull(expiresAt, "expiresAt");
        if (saleGeneration < 0) {
            throw new IllegalArgumentException("saleGeneration must not be negative");
        }
        if (!expiresAt.isAfter(issuedAt)) {
            throw new IllegalArgumentException("expiresAt must be after issuedAt");
        }
    }

    /** A statement of {@code mode} signed now, living {@link #DEFAULT_TTL}; whole seconds, as the JWS carries them. */
    public static ModeStatement of(String eventId, String mode, long saleGeneration, Instant now) {
        Instant issued = Instant.ofEpochSecond(now.getEpochSecond());
        return new ModeStatement(eventId, mode, saleGeneration, issued, issued.plus(DEFAULT_TTL));
    }

    public boolean bypass() {
        return BYPASS.equals(this.mode);
    }
}
