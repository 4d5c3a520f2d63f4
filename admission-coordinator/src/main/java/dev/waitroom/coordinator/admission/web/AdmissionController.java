package dev.waitroom.coordinator.admission.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.admission.Admission;
import dev.waitroom.coordinator.admission.AdmissionPausedException;
import dev.waitroom.coordinator.admission.Admissions;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Supplier;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * The public claim, renew and leave calls (docs/ARCHITECTURE.md#admission-path), reached through the gateway. A claim
 * may name the visitor's next identity ({@code X-Waitroom-Next-Visitor}, minted by the gateway); the answer names the
 * identity the session is bound to in {@code X-Waitroom-Visitor}. Renew and leave need the session's admission token
 * ({@code Authorization: Bearer} or the {@code wr_at} cookie), not only the visitor id.
 */
@RestController
class AdmissionController {

    static final String TOKEN_COOKIE = "wr_at";

    private static final String TOKEN_REALM = "Bearer realm=\"waitroom-shop\"";

    private final Admissions admissions;

    AdmissionController(Admissions admissions) {
        this.admissions = admissions;
    }

    @PostMapping("/events/{eventId}/admission/claim")
    ResponseEntity<SessionBody> claim(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = Headers.NEXT_VISITOR, required = false) String next) {
        VisitorId current = visitor(visitor);
        VisitorId bound = next == null ? current : visitor(next);
        return withToken(this.admissions.claim(EventId.of(eventId), current, bound));
    }

    @PostMapping("/events/{eventId}/shopping-session/renew")
    ResponseEntity<SessionBody> renew(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @CookieValue(name = TOKEN_COOKIE, required = false) String cookie,
            HttpServletResponse response) {
        VisitorId current = visitor(visitor);
        return withToken(challenging(
                response, () -> this.admissions.renew(EventId.of(eventId), current, token(authorization, cookie))));
    }

    @PostMapping("/events/{eventId}/shopping-session/leave")
    ResponseEntity<LeaveBody> leave(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = HttpHeaders.AUTHORIZATION, required = false) String authorization,
            @CookieValue(name = TOKEN_COOKIE, required = false) String cookie,
            HttpServletResponse response) {
        VisitorId current = visitor(visitor);
        challenging(response, () -> this.admissions.leave(EventId.of(eventId), current, token(authorization, cookie)));
        ResponseCookie cleared = ResponseCookie.from(TOKEN_COOKIE, "")
                .path("/")
                .httpOnly(true)
                .sameSite("Lax")
                .maxAge(0)
                .build();
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.SET_COOKIE, cleared.toString())
                .body(new LeaveBody(eventId, "RELEASED"));
    }

    /** A claim while the event is paused: the offer is held; the answer says when to try again. */
    @ExceptionHandler(AdmissionPausedException.class)
    ResponseEntity<ProblemDetail> paused(AdmissionPausedException ex, HttpServletRequest request) {
        return ProblemResponses.builder(ex.problem())
                .header(HttpHeaders.RETRY_AFTER, Long.toString(ex.retryAfter().toSeconds()))
                .body(ProblemResponses.detail(ex.problem(), ex.getMessage(), ex.properties(), request));
    }

    private static ResponseEntity<SessionBody> withToken(Admission admission) {
        ResponseCookie cookie = ResponseCookie.from(TOKEN_COOKIE, admission.token())
                .path("/")
                .httpOnly(true)
                .sameSite("Lax")
                .build();
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.SET_COOKIE, cookie.toString())
                .header(Headers.VISITOR, admission.visitor().value())
                .body(new SessionBody(
                        admission.sessionId().value(),
                        admission.eventId(),
                        admission.state().name(),
                        admission.expiresAt(),
                        admission.absoluteExpiresAt(),
                        admission.token()));
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

    private static VisitorId visitor(String header) {
        if (header == null || !VisitorId.isValid(header)) {
            throw new CoordinatorException(
                    ProblemType.INVALID_VISITOR, "The visitor identity is missing or malformed.");
        }
        return new VisitorId(header);
    }

    record SessionBody(
            UUID sessionId, String eventId, String state, Instant expiresAt, Instant absoluteExpiresAt, String token) {}

    record LeaveBody(String eventId, String state) {}
}
