package dev.waitroom.queue.visitor;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.JoinOutcome;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.metrics.QueueMetrics;
import dev.waitroom.queue.status.GateSilence;
import dev.waitroom.queue.status.StatusBodies;
import dev.waitroom.queue.status.StatusLoad;
import dev.waitroom.queue.status.StatusStore;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.web.ProblemException;
import java.time.Clock;
import java.util.Optional;
import org.springframework.http.CacheControl;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.stereotype.Component;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.ObjectMapper;

/**
 * What a join does around its Lua call, the same for a join forwarded alone ({@link VisitorQueueController}) and for
 * each join of a gateway's batch ({@link JoinBatchController}): the checks before it (body, sign-in, an account's place
 * held by another browser) and the answer after it (status, ticket, bound visitor).
 */
@Component
class VisitorJoins {

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

    VisitorJoins(
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
        this.statuses = statuses;
        this.tickets = tickets;
        this.properties = properties;
        this.metrics = metrics;
        this.load = load;
        this.json = json;
        this.clock = clock;
        this.signIn = signIn;
        this.accounts = accounts;
        this.silence = silence;
    }

    /**
     * The checks before the join's script: a problem when the body is neither empty nor a JSON object, or an
     * ACCOUNT-scoped event has no account; the answer itself when another browser of the account holds its place
     * (its place as it is, bound to the visitor id its offer is made to), so no script runs.
     */
    Optional<ResponseEntity<QueueStatus>> beforeJoin(EventId event, Visitor who, String accountProblem, String body) {
        requireEmptyOrObject(body);
        signIn.check(event, who, accountProblem);
        Optional<AccountEntries.Bound> bound = boundEntry(event, who);
        if (bound.isPresent() && bound.get().live() && !bound.get().visitor().equals(who.visitorId())) {
            VisitorStatus status = currentStatus(event, who);
            metrics.joined(event, false);
            return Optional.of(respond(HttpStatus.OK, event, status, bound.get()));
        }
        return Optional.empty();
    }

    /** The answer to a join whose script converged on {@code outcome}. */
    ResponseEntity<QueueStatus> joined(EventId event, JoinOutcome outcome) {
        metrics.joined(event, outcome.created());
        metrics.watch(event);
        return respond(outcome.created() ? HttpStatus.CREATED : HttpStatus.OK, event, outcome.status(), null);
    }

    VisitorStatus currentStatus(EventId event, Visitor who) {
        VisitorStatus status = statuses.status(event, who, properties.livenessInterval());
        if (status == null) {
            throw new ProblemException(ProblemType.NOT_IN_QUEUE, "This visitor has no place in this queue.");
        }
        return status;
    }

    /** The status as the visitor is shown it: a silent gate's event reads PAUSED (GateSilence). */
    VisitorStatus shown(VisitorStatus status) {
        return status.withMode(silence.presented(status.phase(), status.mode(), status.pushedAt()));
    }

    /** The account's entry of an ACCOUNT-scoped event, when the gateway vouches for an account. */
    Optional<AccountEntries.Bound> boundEntry(EventId event, Visitor who) {
        if (who.account() == null || !signIn.accountScoped(event)) {
            return Optional.empty();
        }
        return accounts.of(event, who);
    }

    /**
     * {@code bound}: the account's entry, whose visitor id goes back to the gateway in {@code X-Waitroom-Visitor} (a
     * claim from another browser of the account is made under it; the gateway never passes it to the browser).
     */
    ResponseEntity<QueueStatus> respond(
            HttpStatus code, EventId event, VisitorStatus status, AccountEntries.Bound bound) {
        ResponseEntity.BodyBuilder response = ResponseEntity.status(code).cacheControl(CacheControl.noStore());
        if (bound != null) {
            response.header(Headers.VISITOR, bound.visitor().value());
        }
        if (status.state() == EntryState.WAITING && status.lane().isGeneral()) {
            // only a waiting entry gets a ticket: the edge answers for waiting visitors alone, and a ticket
            // issued for any other state would let it answer WAITING for someone who has moved on; a lane member's
            // place is counted within its lane, which the edge snapshot does not summarise, so its polls come here
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
