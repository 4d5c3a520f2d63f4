package dev.waitroom.queue.warmup;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.queue.config.QueueProperties;
import dev.waitroom.queue.event.EventStore;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.JoinStore;
import dev.waitroom.queue.join.Visitor;
import dev.waitroom.queue.join.VisitorStatus;
import dev.waitroom.queue.redis.EventErasure;
import dev.waitroom.queue.redis.EventKeys;
import dev.waitroom.queue.status.GateSilence;
import dev.waitroom.queue.status.StatusBodies;
import dev.waitroom.queue.status.StatusStore;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.web.warmup.WarmupStep;
import java.time.Clock;
import java.util.List;
import org.springframework.stereotype.Component;
import tools.jackson.databind.ObjectMapper;

/**
 * The queue's hot paths before it reports ready: a join of a new visitor (join.lua), two status polls of it
 * (status.lua), the ticket the answer carries and the JSON of both answers, and now and then the edge snapshot and the
 * event read, against the service's own Redis, on a private {@link EventId#warmUp()} event.
 *
 * <p>In process, through the stores the controllers call, not over HTTP: every route of the service needs the
 * internal credential, and the controllers count each call in meters tagged with the event, where a warm-up event
 * must never appear. {@link #close()} deletes every key of the event ({@code wr:{warmup--…}:*}, one hash slot) and the
 * key hints it left.
 */
@Component
class QueueWarmup implements WarmupStep {

    private final EventStore events;
    private final JoinStore joins;
    private final StatusStore statuses;
    private final QueueTicketCodec tickets;
    private final GateSilence silence;
    private final EventErasure erasure;
    private final QueueProperties properties;
    private final ObjectMapper json;
    private final Clock clock;

    private EventId event;

    QueueWarmup(
            EventStore events,
            JoinStore joins,
            StatusStore statuses,
            QueueTicketCodec tickets,
            GateSilence silence,
            EventErasure erasure,
            QueueProperties properties,
            ObjectMapper json,
            Clock clock) {
        this.events = events;
        this.joins = joins;
        this.statuses = statuses;
        this.tickets = tickets;
        this.silence = silence;
        this.erasure = erasure;
        this.properties = properties;
        this.json = json;
        this.clock = clock;
    }

    @Override
    public String name() {
        return "queue joins and status";
    }

    @Override
    public void call(int iteration) {
        if (event == null) {
            event = EventId.warmUp();
            events.putEvent(event, openEvent());
        }
        Visitor visitor = new Visitor(VisitorId.random(), null);
        VisitorStatus joined =
                joins.join(event, visitor, properties.livenessInterval()).status();
        answer(joined);
        answer(statuses.status(event, visitor, properties.livenessInterval()));
        answer(statuses.status(event, visitor, properties.livenessInterval()));
        if (iteration % 50 == 0) {
            events.snapshot(event, properties.snapshotBuckets());
            events.readEvent(event);
        }
    }

    /** What a controller does with a status before it is written: the mode shown, the ticket, the body as JSON. */
    private void answer(VisitorStatus status) {
        VisitorStatus shown = status.withMode(silence.presented(status.phase(), status.mode(), status.pushedAt()));
        if (status.state() == EntryState.WAITING) {
            tickets.encode(new QueueTicket(
                    event.value(), status.entryId().value(), Math.max(0, status.orderKey()), clock.instant()));
        }
        json.writeValueAsBytes(StatusBodies.of(shown, false));
    }

    @Override
    public void close() {
        if (event == null) {
            return;
        }
        try {
            erasure.erase(EventKeys.of(event));
        } finally {
            event = null;
        }
    }

    private static EventUpdateRequest openEvent() {
        return EventUpdateRequest.of(
                EventPhase.OPEN,
                OperatingMode.QUEUEING,
                null,
                1,
                null,
                null,
                IdentityScope.BROWSER,
                ExpiredOfferPolicy.REQUEUE_ONCE,
                PresaleOrdering.FIFO,
                10,
                60,
                null,
                JoinGate.OPEN,
                "warm-up",
                AfterPurchase.RELEASE,
                List.of(),
                null);
    }
}
