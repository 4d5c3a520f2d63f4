package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.ShopAssertion;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks a shop request itself (docs/CONTRACTS.md#what-booking-checks-and-what-only-the-gateway-checks): the gateway's
 * per-request assertion that it checked the session's liveness, and the admission token again (signature from the
 * coordinator's JWKS, audience, the event of the path and the sale generation), naming the same session.
 */
final class ShopAdmission {

    static final String COOKIE = "wr_at";

    /** The session a BYPASS shopper shops under; the gateway's BYPASS assertion names the same. */
    static final String BYPASS_SESSION_PREFIX = "bypass-";

    private static final Logger log = LoggerFactory.getLogger(ShopAdmission.class);

    private final AdmissionTokenVerifier verifier;
    private final GatewayAssertions assertions;
    private final SaleGenerations generations;
    private final Duration orderStatusGrace;
    private final MeterRegistry meters;
    private final byte[] internalToken;

    ShopAdmission(
            AdmissionTokenVerifier verifier,
            GatewayAssertions assertions,
            SaleGenerations generations,
            Duration orderStatusGrace,
            MeterRegistry meters,
            String internalToken) {
        this.verifier = verifier;
        this.assertions = assertions;
        this.generations = generations;
        this.orderStatusGrace = orderStatusGrace;
        this.meters = meters;
        this.internalToken = internalToken.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The shopper of a shop request: the gateway's assertion (verified by {@link GatewayAssertions}) must be for this
     * event and, but for BYPASS, name the session, visitor and sale generation of the admission token, which is
     * verified here again (defence in depth: the assertion says the gateway checked liveness, the token that the
     * coordinator admitted this session).
     */
    Shopper admit(HttpServletRequest request, EventId event, boolean orderScoped) {
        ShopAssertion assertion = assertions.of(request);
        if (!assertion.eventId().equals(event.value())) {
            throw assertions.mismatch("other-event", "the gateway assertion is for another event");
        }
        if (assertion.scope() == ShopAssertion.Scope.BYPASS) {
            return bypassShopper(request, event, assertion);
        }
        if (assertion.scope() == ShopAssertion.Scope.ORDER_STATUS && !orderScoped) {
            throw assertions.mismatch("other-scope", "the gateway checked this request only for reading an order");
        }
        String token = tokenOf(request);
        if (token == null) {
            reject("missing");
            throw new ProblemException(
                    ProblemType.ADMISSION_TOKEN_REQUIRED,
                    "send the admission token as 'Authorization: Bearer' or the wr_at cookie");
        }
        Admitted admitted = verified(token, event, orderScoped);
        AdmissionClaims claims = admitted.claims();
        if (!claims.sessionId().equals(assertion.sessionId())
                || !claims.visitor().equals(assertion.visitor())
                || claims.saleGeneration() != assertion.saleGeneration()) {
            throw assertions.mismatch("other-session", "the gateway assertion is for another shopping session");
        }
        return Shopper.of(claims, admitted.scope());
    }

    private record Admitted(AdmissionClaims claims, Shopper.AccessScope scope) {}

    /** The token's shopper: shopping while the token is valid, reading its orders only when expired or superseded. */
    private Admitted verified(String token, EventId event, boolean orderScoped) {
        try {
            AdmissionClaims claims = verifier.verify(token, event.value(), generations.current(event));
            generations.observe(event, claims.saleGeneration());
            return new Admitted(claims, Shopper.AccessScope.SHOPPING);
        } catch (TokenRejectedException rejected) {
            // Reading an order it placed is about the order, not about shopping: an expired session, or one from a
            // sale generation that has since moved on, may still follow its payment.
            if (orderScoped
                    && (rejected.reason() == RejectionReason.EXPIRED
                            || rejected.reason() == RejectionReason.OLD_GENERATION)) {
                return orderStatusOnly(token, event);
            }
            throw refusal(rejected);
        } catch (RuntimeException unavailable) {
            reject("unavailable");
            log.warn(
                    "admission tokens cannot be verified: {}",
                    unavailable.getClass().getSimpleName());
            throw new ProblemException(
                    ProblemType.ADMISSION_UNAVAILABLE, "admission cannot be checked right now; try again shortly");
        }
    }

    /**
     * BYPASS mode is an ops decision taken at the edge: the gateway lets shoppers through without a token, says so
     * with the bypass header and the internal credential, and signs a BYPASS assertion for the verified visitor. A
     * client can forge none of it: the gateway strips all three headers from the outside.
     */
    private Shopper bypassShopper(HttpServletRequest request, EventId event, ShopAssertion assertion) {
        String bypass = request.getHeader(Headers.BYPASS);
        String internal = request.getHeader(Headers.INTERNAL);
        if (bypass == null
                || !bypass.equals(event.value())
                || internal == null
                || !MessageDigest.isEqual(internal.getBytes(StandardCharsets.UTF_8), internalToken)) {
            reject("bypass-without-gateway");
            throw assertions.mismatch("other-scope", "the gateway did not send this request under BYPASS");
        }
        String visitor = request.getHeader(Headers.VISITOR);
        if (visitor == null || !visitor.matches("[A-Za-z0-9_-]{22}")) {
            reject("bypass-without-visitor");
            throw new ProblemException(ProblemType.ADMISSION_TOKEN_REQUIRED, "the gateway sent no visitor identity");
        }
        String session = BYPASS_SESSION_PREFIX + visitor;
        if (!visitor.equals(assertion.visitor()) || !session.equals(assertion.sessionId())) {
            throw assertions.mismatch("other-session", "the gateway assertion is for another visitor");
        }
        meters.counter("waitroom.booking.admission.bypassed").increment();
        log.warn(
                "BYPASS: shop request admitted without a token for event {} (ops turned the queue off)", event.value());
        return new Shopper(event, session, visitor, Shopper.AccessScope.SHOPPING);
    }

    private Admitted orderStatusOnly(String token, EventId event) {
        try {
            return new Admitted(
                    verifier.verifyAllowingExpired(token, event.value(), orderStatusGrace),
                    Shopper.AccessScope.ORDER_STATUS_ONLY);
        } catch (TokenRejectedException rejected) {
            throw refusal(rejected);
        }
    }

    private ProblemException refusal(TokenRejectedException rejected) {
        reject(rejected.reason().name().toLowerCase(Locale.ROOT));
        if (rejected.reason() == RejectionReason.WRONG_EVENT) {
            return new ProblemException(
                    ProblemType.ADMISSION_WRONG_EVENT, "the admission token was issued for another event");
        }
        String reason = rejected.reason().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        return new ProblemException(
                ProblemType.ADMISSION_TOKEN_INVALID,
                "admission token refused: " + reason,
                Map.of("reason", rejected.reason().name()));
    }

    private void reject(String reason) {
        meters.counter("waitroom.booking.admission.rejections", "reason", reason)
                .increment();
    }

    static String tokenOf(HttpServletRequest request) {
        String authorization = request.getHeader(Headers.AUTHORIZATION);
        int scheme = Headers.BEARER_PREFIX.length();
        if (authorization != null && authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, scheme)) {
            String token = authorization.substring(scheme).trim();
            return token.isEmpty() ? null : token;
        }
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (COOKIE.equals(cookie.getName())
                        && cookie.getValue() != null
                        && !cookie.getValue().isBlank()) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }
}
