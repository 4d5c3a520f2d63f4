package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorId;
import java.time.Clock;
import java.util.Optional;
import org.springframework.stereotype.Component;

/**
 * The admission token a visitor presents to renew or leave their shopping session (docs/design/architecture.md#identity):
 * the visitor cookie alone proves nothing about the session, so a copied cookie cannot extend it, end it or fetch a
 * fresh token. Signature, audience and expiry are checked against this coordinator's own key ring (its JWKS, so a key
 * unpublished there is refused here too); then the token must name this event, its current sale generation, this
 * visitor and a session bound to this visitor.
 */
@Component
class SessionTokens {

    private final AdmissionTokenVerifier verifier;

    private final Grants grants;

    SessionTokens(SigningKeys keys, Grants grants, Clock clock) {
        this.verifier = AdmissionTokenVerifier.of(keys::publicJwksJson, clock);
        this.grants = grants;
    }

    /**
     * The grant whose session {@code token} was issued for, when the token is this coordinator's, for {@code event}'s
     * current sale generation, and names {@code visitor}, the identity that session is bound to; a 401 problem otherwise
     * (no token, a forged or expired one, another session's, or a visitor id the session has rotated away from). The
     * grant may have ended since: liveness is the caller's check.
     */
    Grant sessionOf(Event event, VisitorId visitor, String token) {
        return grantOf(verify(event, visitor, token), visitor);
    }

    private AdmissionClaims verify(Event event, VisitorId visitor, String token) {
        if (token == null || token.isBlank()) {
            throw new CoordinatorException(
                    ProblemType.ADMISSION_TOKEN_REQUIRED,
                    "This needs the session's admission token (the wr_at cookie or Authorization: Bearer).");
        }
        AdmissionClaims claims;
        try {
            claims = this.verifier.verify(token, event.id().value(), event.saleGeneration());
        } catch (TokenRejectedException ex) {
            if (ex.reason() == RejectionReason.EXPIRED) {
                throw new CoordinatorException(ProblemType.ADMISSION_TOKEN_EXPIRED, "The admission token has expired.");
            }
            if (ex.reason() == RejectionReason.OLD_GENERATION) {
                throw AdmissionProblems.oldGeneration();
            }
            throw invalid();
        }
        if (claims.saleGeneration() < event.saleGeneration()) {
            throw AdmissionProblems.oldGeneration();
        }
        if (claims.saleGeneration() != event.saleGeneration()
                || !claims.visitor().equals(visitor.value())) {
            throw invalid();
        }
        return claims;
    }

    private Grant grantOf(AdmissionClaims claims, VisitorId visitor) {
        SessionId sessionId;
        try {
            sessionId = SessionId.parse(claims.sessionId());
        } catch (IllegalArgumentException ex) {
            throw invalid();
        }
        EventId eventId = EventId.parse(claims.eventId()).orElseThrow(() -> invalid());
        Optional<Grant> grant = this.grants.findBySession(eventId, sessionId);
        if (grant.isEmpty()
                || !grant.get().id().toString().equals(claims.grantId())
                || !visitor.equals(grant.get().sessionVisitor())) {
            throw invalid();
        }
        return grant.get();
    }

    private static CoordinatorException invalid() {
        return new CoordinatorException(
                ProblemType.ADMISSION_TOKEN_INVALID,
                "The admission token does not belong to your current shopping session.");
    }
}
