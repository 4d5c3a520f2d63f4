package dev.waitroom.gateway.admissioncheck;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.warmup.WarmupStep;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenIssuer;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.VisitorId;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;

/**
 * Admission token verification before the gateway reports ready: Ed25519 signatures checked by the same verifier
 * class every shop route uses, on tokens of a private {@link EventId#warmUp()} event.
 *
 * <p>The gateway can verify but never mint a real token, so the tokens are signed with a key ring generated here and
 * checked against its own JWKS: the coordinator's keys are never asked for, and the service's verifier (whose cache
 * holds the real shoppers' verified tokens) never sees one.
 */
@Component
@Order(3) // shoppers, after the queue
class AdmissionTokenWarmup implements WarmupStep {

    private final Clock clock;
    private final EventId event = EventId.warmUp();
    private AdmissionTokenIssuer issuer;
    private AdmissionTokenVerifier verifier;

    AdmissionTokenWarmup(Clock clock) {
        this.clock = clock;
    }

    @Override
    public String name() {
        return "admission tokens";
    }

    @Override
    public void call(int iteration) throws Exception {
        if (issuer == null) {
            KeyRing ring = KeyRing.generate(clock);
            issuer = AdmissionTokenIssuer.of(ring);
            verifier = AdmissionTokenVerifier.of(ring::publicJwksJson, clock, AdmissionTokenVerifier.DEFAULT_SKEW, 16);
        }
        Instant now = clock.instant();
        String token = issuer.issue(new AdmissionClaims(
                event.value(),
                1,
                UUID.randomUUID().toString(),
                UUID.randomUUID().toString(),
                VisitorId.random().value(),
                now,
                now.plus(Duration.ofMinutes(10)),
                UUID.randomUUID().toString()));
        verifier.verify(token, event.value(), 1);
    }

    @Override
    public void close() {
        issuer = null;
        verifier = null;
    }
}
