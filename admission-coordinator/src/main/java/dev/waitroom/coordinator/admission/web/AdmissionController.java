package dev.waitroom.coordinator.admission.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.admission.Admission;
import dev.waitroom.coordinator.admission.Admissions;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;
import java.util.UUID;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/** The public claim, renew and leave calls (docs/ARCHITECTURE.md#admission-path), reached through the gateway. */
@RestController
class AdmissionController {

    static final String TOKEN_COOKIE = "wr_at";

    private final Admissions admissions;

    AdmissionController(Admissions admissions) {
        this.admissions = admissions;
    }

    @PostMapping("/events/{eventId}/admission/claim")
    ResponseEntity<SessionBody> claim(
            @PathVariable String eventId, @RequestHeader(name = Headers.VISITOR, required = false) String visitor) {
        return withToken(this.admissions.claim(EventId.of(eventId), visitor(visitor)));
    }

    @PostMapping("/events/{eventId}/shopping-session/renew")
    ResponseEntity<SessionBody> renew(
            @PathVariable String eventId, @RequestHeader(name = Headers.VISITOR, required = false) String visitor) {
        return withToken(this.admissions.renew(EventId.of(eventId), visitor(visitor)));
    }

    @PostMapping("/events/{eventId}/shopping-session/leave")
    ResponseEntity<LeaveBody> leave(
            @PathVariable String eventId, @RequestHeader(name = Headers.VISITOR, required = false) String visitor) {
        this.admissions.leave(EventId.of(eventId), visitor(visitor));
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

    private static ResponseEntity<SessionBody> withToken(Admission admission) {
        ResponseCookie cookie = ResponseCookie.from(TOKEN_COOKIE, admission.token())
                .path("/")
                .httpOnly(true)
                .sameSite("Lax")
                .build();
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .header(HttpHeaders.SET_COOKIE, cookie.toString())
                .body(new SessionBody(
                        admission.sessionId().value(),
                        admission.eventId(),
                        admission.state().name(),
                        admission.expiresAt(),
                        admission.absoluteExpiresAt(),
                        admission.token()));
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
