package dev.waitroom.queue.visitor;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.JoinOutcome;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.status.GateSilence;
import dev.waitroom.queue.status.StatusBodies;
import dev.waitroom.queue.status.StatusLoad;
import dev.waitroom.queue.status.StatusStore;
import dev.waitroom.queue.web.RetryLaterException;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.web.ProblemException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Clock;
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
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * Join, status and leave for one visitor, whose identity the gateway forwards (never the client). On an ACCOUNT-scoped
 * event each needs the verified account too ({@link SignInRequirement}: 401 {@code sign-in-required} without one).
 */
@RestController
@RequestMapping("/events/{eventId}/queue")
@Tag(name = "visitor", description = "Routes the gateway forwards for a visitor (X-Waitroom-Visitor required)")
class VisitorQueueController {

    private final JoinStore joins;
    private final StatusStore statuses;
    private final QueueTicketCodec tickets;
    private final QueueProperties properties;
    private final QueueMetrics metrics;
    private final StatusLoad load;
    private final ObjectMapper json;
    private final Clock clock;
    private final SignInRequirement signIn;
    private final AccountEntries accounts;

    private final GateSilence silence;

    VisitorQueueController(
            JoinStore joins,
            StatusStore statuses,
            QueueTicketCodec tickets,
            QueueProperties properties,
            QueueMetrics metrics,
            StatusLoad load,
            ObjectMapper json,
            Clock clock,
            SignInRequirement signIn,
            AccountEntries accounts,
            GateSilence silence) {
        this.silence = silence;
        this.joins = joins;
        this.statuses = statuses;
        this.tickets = tickets;
        this.properties = properties;
        this.metrics = metrics;
        this.load = load;
        this.json = json;
        this.clock = clock;
        this.signIn = signIn;
        this.accounts = accounts;
    }

    @PostMapping
    @Operation(summary = "Join: 201 with a new entry, 200 with the existing one; body = status")
    ResponseEntity<QueueStatus> join(
            @PathVariable String eventId,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem,
            @RequestBody(required = false) String body) {
        EventId event = new EventId(eventId);
        Visitor who = Visitor.fromHeaders(visitor, account);
        requireEmptyOrObject(body);
        signIn.check(event, who, accountProblem);
        Optional<AccountEntries.Bound> bound = boundEntry(event, who);
        if (bound.isPresent() && bound.get().live() && !bound.get().visitor().equals(who.visitorId())) {
            // another browser of the account: its place as it is, bound to the visitor id its offer is made to
            VisitorStatus status = currentStatus(event, who);
            metrics.joined(event, false);
            return respond(HttpStatus.OK, event, status, bound.get());
        }
        JoinOutcome outcome;
        try {
            outcome = joins.join(event, who, properties.livenessInterval());
        } catch (RetryLaterException throttled) {
            metrics.joinThrottled(event);
            throw throttled;
        }
        metrics.joined(event, outcome.created());
        metrics.watch(event);
        return respond(outcome.created() ? HttpStatus.CREATED : HttpStatus.OK, event, outcome.status(), null);
    }

    @GetMapping("/status")
    @Operation(summary = "This visitor's status; refreshes liveness, never order")
    ResponseEntity<QueueStatus> status(
            @PathVariable String eventId,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem) {
        EventId event = new EventId(eventId);
        Visitor who = Visitor.fromHeaders(visitor, account);
        signIn.check(event, who, accountProblem);
        VisitorStatus status = currentStatus(event, who);
        metrics.statusServed(event);
        return respond(HttpStatus.OK, event, status, boundEntry(event, who).orElse(null));
    }

    @DeleteMapping
    @Operation(summary = "Leave: WAITING -> LEFT; idempotent; body = status")
    ResponseEntity<QueueStatus> leave(
            @PathVariable String eventId,
            @RequestHeader(value = Headers.VISITOR, required = false) String visitor,
            @RequestHeader(value = Headers.ACCOUNT, required = false) String account,
            @RequestHeader(value = Headers.ACCOUNT_PROBLEM, required = false) String accountProblem) {
        EventId event = new EventId(eventId);
        Visitor who = Visitor.fromHeaders(visitor, account);
        signIn.check(event, who, accountProblem);
        joins.leave(event, who);
        metrics.left(event);
        VisitorStatus status = currentStatus(event, who);
        return ResponseEntity.ok().cacheControl(CacheControl.noStore()).body(StatusBodies.of(shown(status), false));
    }

    private VisitorStatus currentStatus(EventId event, Visitor who) {
        VisitorStatus status = statuses.status(event, who, properties.livenessInterval());
        if (status == null) {
            throw new ProblemException(ProblemType.NOT_IN_QUEUE, "This visitor has no place in this queue.");
        }
        return status;
    }

    /** The status as the visitor is shown it: a silent gate's event reads PAUSED (GateSilence). */
    private VisitorStatus shown(VisitorStatus status) {
        return status.withMode(silence.presented(status.phase(), status.mode(), status.pushedAt()));
    }

    /** The account's entry of an ACCOUNT-scoped event, when the gateway vouches for an account. */
    private Optional<AccountEntries.Bound> boundEntry(EventId event, Visitor who) {
        if (who.account() == null || !signIn.accountScoped(event)) {
            return Optional.empty();
        }
        return accounts.of(event, who);
    }

    /**
     * {@code bound}: the account's entry, whose visitor id goes back to the gateway in {@code X-Waitroom-Visitor} (a
     * claim from another browser of the account is made under it; the gateway never passes it to the browser).
     */
    private ResponseEntity<QueueStatus> respond(
            HttpStatus code, EventId event, VisitorStatus status, AccountEntries.Bound bound) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(code).cacheControl(CacheControl.noStore());
        if (bound != null) {
            response.header(Headers.VISITOR, bound.visitor().value());
        }
        if (status.state() == EntryState.WAITING) {
            // only a waiting entry gets a ticket: the edge answers for waiting visitors alone, and a ticket
            // issued for any other state would let it answer WAITING for someone who has moved on
            response.header(
                    Headers.TICKET,
                    tickets.encode(new QueueTicket(
                            event.value(), status.entryId().value(), Math.max(0, status.orderKey()), clock.instant())));
        }
        return response.body(StatusBodies.of(shown(status), load.recordAndCheckBusy()));
    }

    private void requireEmptyOrObject(String body) {
        if (body == null || body.isBlank()) {
            return;
        }
        try {
            if (!json.readTree(body).isObject()) {
                throw new MalformedValueException("the join body, when present, is a JSON object");
            }
        } catch (JacksonException e) {
            throw new MalformedValueException("the join body is not JSON");
        }
    }
}
