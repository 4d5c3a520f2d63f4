package dev.waitroom.booking.access;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.web.ProblemException;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletRequest;
import java.time.Duration;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks the admission token of a shop request itself (booking never trusts a request without one:
 * docs/CONTRACTS.md#what-booking-checks-and-what-only-the-gateway-checks): signature from the coordinator's JWKS,
 * audience, the event of the path and the sale generation.
 */
final class ShopAdmission {

    static final String COOKIE = "wr_at";
    private static final Logger log = LoggerFactory.getLogger(ShopAdmission.class);

    private final AdmissionTokenVerifier verifier;
    private final SaleGenerations generations;
    private final Duration orderStatusGrace;
    private final MeterRegistry meters;
    private final byte[] internalToken;

    ShopAdmission(
            AdmissionTokenVerifier verifier,
            SaleGenerations generations,
            Duration orderStatusGrace,
            MeterRegistry meters,
            String internalToken) {
        this.internalToken = internalToken.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        this.verifier = verifier;
        this.generations = generations;
        this.orderStatusGrace = orderStatusGrace;
        this.meters = meters;
    }

    Shopper admit(HttpServletRequest request, EventId event, boolean orderScoped) {
        String token = tokenOf(request);
        if (token == null && bypassed(request, event)) {
            return bypassShopper(request, event);
        }
        if (token == null) {
            reject("missing");
            throw new ProblemException(
                    ProblemType.ADMISSION_TOKEN_REQUIRED,
                    "send the admission token as 'Authorization: Bearer' or the wr_at cookie");
        }
        try {
            AdmissionClaims claims = verifier.verify(token, event.value(), generations.current(event));
            generations.observe(event, claims.saleGeneration());
            return Shopper.of(claims, Shopper.AccessScope.SHOPPING);
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
     * BYPASS mode is an ops decision taken at the edge: the gateway lets shoppers through without a token and says so
     * with the internal credential. A client cannot forge it: the gateway strips both headers from the outside.
     */
    private boolean bypassed(HttpServletRequest request, EventId event) {
        String bypass = request.getHeader(Headers.BYPASS);
        String internal = request.getHeader(Headers.INTERNAL);
        return bypass != null
                && bypass.equals(event.value())
                && internal != null
                && java.security.MessageDigest.isEqual(
                        internal.getBytes(java.nio.charset.StandardCharsets.UTF_8), internalToken);
    }

    private Shopper bypassShopper(HttpServletRequest request, EventId event) {
        String visitor = request.getHeader(Headers.VISITOR);
        if (visitor == null || !visitor.matches("[A-Za-z0-9_-]{22}")) {
            reject("bypass-without-visitor");
            throw new ProblemException(ProblemType.ADMISSION_TOKEN_REQUIRED, "the gateway sent no visitor identity");
        }
        meters.counter("waitroom.booking.admission.bypassed").increment();
        log.warn(
                "BYPASS: shop request admitted without a token for event {} (ops turned the queue off)", event.value());
        return new Shopper(event, "bypass-" + visitor, visitor, Shopper.AccessScope.SHOPPING);
    }

    private Shopper orderStatusOnly(String token, EventId event) {
        try {
            AdmissionClaims claims = verifier.verifyAllowingExpired(token, event.value(), orderStatusGrace);
            return Shopper.of(claims, Shopper.AccessScope.ORDER_STATUS_ONLY);
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
                java.util.Map.of("reason", rejected.reason().name()));
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
