package dev.waitroom.queue.visitor;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.join.JoinOutcome;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.status.StatusBodies;
import dev.waitroom.queue.web.RetryLaterException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.util.Optional;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * Join, status and leave for one visitor, whose identity the gateway forwards (never the client). On an ACCOUNT-scoped
 * event each needs the verified account too ({@link SignInRequirement}: 401 {@code sign-in-required} without one).
 */
@RestController
@RequestMapping("/events/{eventId}/queue")
@Tag(name = "visitor", description = "Routes the gateway forwards for a visitor (X-Waitroom-Visitor required)")
class VisitorQueueController {

    private final JoinStore joins;
    private final VisitorJoins visits;
    private final QueueProperties properties;
    private final QueueMetrics metrics;
    private final SignInRequirement signIn;

    VisitorQueueController(
            JoinStore joins,
            VisitorJoins visits,
            QueueProperties properties,
            QueueMetrics metrics,
            SignInRequirement signIn) {
        this.joins = joins;
        this.visits = visits;
        this.properties = properties;
        this.metrics = metrics;
        this.signIn = signIn;
    }

    @PostMapping
    @Operation(summary = "Join: 201 with a new entry, 200 with the existing one; body = status")
    ResponseEntity<QueueStatus> join(
            @PathVariable("eventId") EventId event,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem,
            @RequestBody(required = false) String body) {
        Visitor who = Visitor.fromHeaders(visitor, account);
        Optional<ResponseEntity<QueueStatus>> early = visits.beforeJoin(event, who, accountProblem, body);
        if (early.isPresent()) {
            return early.get();
        }
        JoinOutcome outcome;
        try {
            outcome = joins.join(event, who, properties.livenessInterval());
        } catch (RetryLaterException throttled) {
            metrics.joinThrottled(event);
            throw throttled;
        }
        return visits.joined(event, outcome);
    }

    @GetMapping("/status")
    @Operation(summary = "This visitor's status; refreshes liveness, never order")
    ResponseEntity<QueueStatus> status(
            @PathVariable("eventId") EventId event,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem) {
        Visitor who = Visitor.fromHeaders(visitor, account);
        signIn.check(event, who, accountProblem);
        VisitorStatus status = visits.currentStatus(event, who);
        metrics.statusServed(event);
        return visits.respond(
                HttpStatus.OK, event, status, visits.boundEntry(event, who).orElse(null));
    }

    @DeleteMapping
    @Operation(summary = "Leave: WAITING -> LEFT; idempotent; body = status")
    ResponseEntity<QueueStatus> leave(
            @PathVariable("eventId") EventId event,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem) {
        Visitor who = Visitor.fromHeaders(visitor, account);
        signIn.check(event, who, accountProblem);
        joins.leave(event, who);
        metrics.left(event);
        VisitorStatus status = visits.currentStatus(event, who);
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(StatusBodies.of(visits.shown(status), false));
    }
}
