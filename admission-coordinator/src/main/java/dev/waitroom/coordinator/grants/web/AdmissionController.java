package dev.waitroom.coordinator.grants.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.grants.AdmissionPausedException;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.ClaimKey;
import dev.waitroom.coordinator.grants.ClaimProof;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.Optional;
import java.util.function.Supplier;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The public claim, renew and leave calls (docs/design/architecture.md#admission-path), reached through the gateway. A claim
 * may carry the browser's claim key ({@code Idempotency-Key}) and the session's admission token ({@code Authorization:
 * Bearer} or the {@code wr_at} cookie): a repeat of a claim is given the session again only with one of them
 * (docs/design/architecture.md#identity). Renew and leave need the session's admission token, not only the visitor id. The
 * admission cookie is the event's own ({@code Path=/events/{e}}), so a buyer admitted to two events holds both.
 */
@RestController
class AdmissionController {

    private static final String TOKEN_REALM = "Bearer realm=\"waitroom-shop\"";

    private final Admissions admissions;

    AdmissionController(Admissions admissions) {
        this.admissions = admissions;
    }

    @PostMapping("/events/{eventId}/admission/claim")
    ResponseEntity<SessionAnswers.Session> claim(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = Headers.CLAIMING_VISITOR, required = false) String claiming,
            @RequestHeader(name = Headers.IDEMPOTENCY_KEY, required = false) String key,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @CookieValue(name = SessionAnswers.TOKEN_COOKIE, required = false) String cookie) {
        VisitorId current = SessionAnswers.visitor(visitor);
        VisitorId bound = claiming == null ? current : SessionAnswers.visitor(claiming);
        if (key != null && !ClaimKey.isValid(key)) {
            throw new CoordinatorException(
                    ProblemType.MALFORMED_REQUEST,
                    "Idempotency-Key must be 16 to 128 characters of A-Z, a-z, 0-9, '-' and '_'.");
        }
        String token = token(authorization, cookie);
        ClaimProof proof = new ClaimProof(
                Optional.ofNullable(key).map(ClaimKey::new),
                Optional.ofNullable(token).filter(t -> !t.isBlank()));
        return SessionAnswers.of(this.admissions.claim(EventId.of(eventId), current, bound, proof));
    }

    @PostMapping("/events/{eventId}/shopping-session/renew")
    ResponseEntity<SessionAnswers.Session> renew(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @CookieValue(name = SessionAnswers.TOKEN_COOKIE, required = false) String cookie,
            HttpServletResponse response) {
        VisitorId current = SessionAnswers.visitor(visitor);
        return SessionAnswers.of(challenging(
                response, () -> this.admissions.renew(EventId.of(eventId), current, token(authorization, cookie))));
    }

    @PostMapping("/events/{eventId}/shopping-session/leave")
    ResponseEntity<LeaveBody> leave(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @CookieValue(name = SessionAnswers.TOKEN_COOKIE, required = false) String cookie,
            HttpServletResponse response) {
        VisitorId current = SessionAnswers.visitor(visitor);
        challenging(response, () -> this.admissions.leave(EventId.of(eventId), current, token(authorization, cookie)));
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.SET_COOKIE, SessionAnswers.clearedCookie(eventId))
                .body(new LeaveBody(eventId, "RELEASED"));
    }

    /** A claim while the event is paused: the offer is held; the answer says when to try again. */
    @ExceptionHandler(AdmissionPausedException.class)
    ResponseEntity<ProblemDetail> paused(AdmissionPausedException ex, HttpServletRequest request) {
        return ProblemResponses.builder(ex.problem())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(ex.retryAfter().toSeconds()))
                .body(ProblemResponses.detail(ex.problem(), ex.getMessage(), ex.properties(), request));
    }

    /** The bearer token when one is sent, else the cookie's. */
    private static String token(String authorization, String cookie) {
        if (authorization != null
                && authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, Headers.BEARER_PREFIX.length())) {
            return authorization.substring(Headers.BEARER_PREFIX.length()).trim();
        }
        return cookie;
    }

    /** A 401 answer names the scheme it wants (RFC 9110 section 11.6.1). */
    private static <T> T challenging(HttpServletResponse response, Supplier<T> call) {
        try {
            return call.get();
        } catch (CoordinatorException ex) {
            if (ex.problem().status() == HttpStatus.UNAUTHORIZED.value()) {
                response.setHeader(HttpHeaders.WWW_AUTHENTICATE, TOKEN_REALM);
            }
            throw ex;
        }
    }

    record LeaveBody(String eventId, String state) {}
}
