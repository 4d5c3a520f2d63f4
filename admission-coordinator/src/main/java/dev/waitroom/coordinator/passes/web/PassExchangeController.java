package dev.waitroom.coordinator.passes.web;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.coordinator.grants.web.SessionAnswers;
import dev.waitroom.coordinator.passes.Passes;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.ProblemResponses;
import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code POST /events/{eventId}/admission/pass} (docs/operating/allow-rules-and-passes.md), reached through the
 * gateway: the pass in the {@code Waitroom-Pass} header, never in the URL, is exchanged for a shopping session, answered
 * as a claim is (the admission cookie, and the token in the body for API clients). A refusal at the ceiling or while
 * paused carries {@code Retry-After}.
 */
@RestController
class PassExchangeController {

    /** The request header carrying the pass. */
    static final String PASS_HEADER = "Waitroom-Pass";

    private final Passes passes;

    PassExchangeController(Passes passes) {
        this.passes = passes;
    }

    @PostMapping("/events/{eventId}/admission/pass")
    ResponseEntity<SessionAnswers.Session> exchange(
            @PathVariable String eventId,
            @RequestHeader(name = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(name = PASS_HEADER, required = false) String pass) {
        VisitorId current = SessionAnswers.visitor(visitor);
        return SessionAnswers.of(this.passes.exchange(EventId.of(eventId), current, pass));
    }

    /** The problem as every coordinator answer has it; a 503 (ceiling, pause) says when to try again. */
    @ExceptionHandler(CoordinatorException.class)
    ResponseEntity<ProblemDetail> refused(CoordinatorException ex, HttpServletRequest request) {
        ResponseEntity.BodyBuilder builder = ProblemResponses.builder(ex.problem());
        if (ex.problem().status() == 503) {
            builder.header(HttpHeaders.RETRY_AFTER, Long.toString(Passes.RETRY_AFTER.toSeconds()));
        }
        return builder.body(ProblemResponses.detail(ex.problem(), ex.getMessage(), ex.properties(), request));
    }
}
