package dev.waitroom.coordinator.grants.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.grants.Admission;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;

/**
 * How the coordinator answers a call that opens or renews a shopping session (a claim, a renewal, a pass exchange):
 * the event's own admission cookie ({@code Path=/events/{e}}, so a buyer admitted to two events holds both), and the
 * session with its token in the body for API clients; never stored by a cache. Also the visitor header every such
 * call needs.
 */
public final class SessionAnswers {

    /** The admission cookie. */
    public static final String TOKEN_COOKIE = "wr_at";

    private SessionAnswers() {}

    /** 200 with the session, its token as the event's admission cookie and in the body. */
    public static ResponseEntity<Session> of(Admission admission) {
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.SET_COOKIE, cookie(admission.eventId().value(), admission.token(), false))
                .body(new Session(
                        admission.sessionId().value(),
                        admission.eventId().value(),
                        admission.state().name(),
                        admission.expiresAt(),
                        admission.absoluteExpiresAt(),
                        admission.token()));
    }

    /** The {@code Set-Cookie} value that clears the event's admission cookie. */
    public static String clearedCookie(String eventId) {
        return cookie(eventId, "", true);
    }

    /** The visitor the gateway vouches for, or 400 {@code invalid-visitor}. */
    public static VisitorId visitor(String header) {
        if (header == null || !VisitorId.isValid(header)) {
            throw new CoordinatorException(
                    ProblemType.INVALID_VISITOR, "The visitor identity is missing or malformed.");
        }
        return new VisitorId(header);
    }

    private static String cookie(String eventId, String value, boolean cleared) {
        ResponseCookie.ResponseCookieBuilder cookie = ResponseCookie.from(TOKEN_COOKIE, value)
                .path("/events/" + eventId)
                .httpOnly(true)
                .sameSite("Lax");
        if (cleared) {
            cookie.maxAge(0);
        }
        return cookie.build().toString();
    }

    /** The body of a session answer. */
    public record Session(
            UUID sessionId, String eventId, String state, Instant expiresAt, Instant absoluteExpiresAt, String token) {}
}
