package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Sets an event's schedule and applies it from the ticker (docs/operating/schedules-and-pauses.md): the closing ends
 * the sale as {@code POST /end} does; a PAUSE window pauses as {@code POST /pause} does and, at its end, resumes unless
 * an operator changed the mode since; QUEUE_ALL windows and the time outside OPEN windows hold offers back without a
 * mode change ({@link #holdAt}). Each start, end and closing is recorded once with its reason, by the ticker that
 * applied it.
 */
@Service
public class EventSchedules {

    private static final Logger log = LoggerFactory.getLogger(EventSchedules.class);

    private final Schedules schedules;

    private final Events events;

    private final EventManagement management;

    private final EventStatePublisher publisher;

    private final TransactionTemplate transactions;

    private final Clock clock;

    EventSchedules(
            Schedules schedules,
            Events events,
            EventManagement management,
            EventStatePublisher publisher,
            TransactionTemplate transactions,
            Clock clock) {
        this.schedules = schedules;
        this.events = events;
        this.management = management;
        this.publisher = publisher;
        this.transactions = transactions;
        this.clock = clock;
    }

    public Schedule of(EventId id) {
        this.management.get(id);
        return this.schedules.of(id);
    }

    /**
     * Replaces the event's schedule, checked against its opening time; refused for an ended event and for a closing
     * time already past (that is {@code POST /end}). Audited with the operator's name and reason.
     */
    public Schedule set(EventId id, Schedule schedule, String actor, String reason) {
        Instant now = this.clock.instant();
        Event after = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (current.phase() == EventPhase.ENDED) {
                throw new CoordinatorException(ProblemType.INVALID_TRANSITION, "the sale has ended");
            }
            schedule.checkedAgainst(
                    current.phase() == EventPhase.SCHEDULED ? current.config().opensAt() : null);
            if (schedule.closesAt() != null && !schedule.closesAt().isAfter(now)) {
                throw Schedule.invalid("closesAt is in the past; POST /admin/events/" + id + "/end ends the sale now");
            }
            this.schedules.replace(id, schedule, actor, reason + " (" + describe(schedule) + ")");
            return current;
        });
        this.schedules.forget(id);
        log.info("Event {}: schedule set by {}: {}", id, actor, describe(schedule));
        this.publisher.publishQuietly(this.management.get(after.id()));
        return this.schedules.of(id);
    }

    /** What the plan holds offers back by now, if anything. */
    public Optional<AdmissionHold> holdAt(Event event, Instant now) {
        if (event.phase() != EventPhase.OPEN) {
            return Optional.empty();
        }
        return this.schedules.cached(event.id()).holdAt(now);
    }

    /**
     * Applies what is due at {@code now}: the closing, then each window that ended, then the window in force. Returns
     * the event as it is after.
     */
    public Event apply(Event event, Instant now) {
        if (event.phase() == EventPhase.ENDED) {
            return event;
        }
        Schedule schedule = this.schedules.cached(event.id());
        if (schedule.closesAt() != null && !now.isBefore(schedule.closesAt())) {
            String reason = "closing time reached (" + schedule.closesAt() + ")";
            if (this.schedules.recordOnce(event.id(), "CLOSED", null, reason)) {
                return this.management.end(event.id(), Schedules.ACTOR, reason);
            }
            return event;
        }
        if (event.phase() != EventPhase.OPEN || schedule.windows().isEmpty()) {
            return event;
        }
        Event current = event;
        for (PlannedWindow w : schedule.windows()) {
            if (!now.isBefore(w.endsAt())
                    && this.schedules.started(event.id(), w)
                    && this.schedules.recordOnce(
                            event.id(), "ENDED", w, "planned " + w.kind() + " ended: " + w.reason())) {
                current = ended(current, w);
            }
        }
        Optional<PlannedWindow> active = schedule.at(now);
        if (active.isPresent()
                && this.schedules.recordOnce(
                        event.id(),
                        "STARTED",
                        active.get(),
                        "planned " + active.get().kind() + ": " + active.get().reason())) {
            current = started(current, active.get());
        }
        return current;
    }

    private Event started(Event event, PlannedWindow w) {
        log.info("Event {}: planned {} window started: {}", event.id(), w.kind(), w.reason());
        if (w.kind() == PlannedWindow.Kind.PAUSE && event.mode() == OperatingMode.QUEUEING) {
            return this.management.changeMode(
                    event.id(), OperatingMode.PAUSED, Schedules.ACTOR, "planned pause: " + w.reason());
        }
        this.publisher.publishQuietly(event);
        return event;
    }

    private Event ended(Event event, PlannedWindow w) {
        log.info("Event {}: planned {} window ended: {}", event.id(), w.kind(), w.reason());
        Event now = this.management.get(event.id());
        if (w.kind() == PlannedWindow.Kind.PAUSE
                && now.mode() == OperatingMode.PAUSED
                && this.schedules.pausedBySchedule(event.id())) {
            return this.management.changeMode(
                    event.id(), OperatingMode.QUEUEING, Schedules.ACTOR, "planned pause ended: " + w.reason());
        }
        this.publisher.publishQuietly(now);
        return now;
    }

    private static String describe(Schedule s) {
        return "closesAt " + s.closesAt() + ", " + s.windows().size() + " windows";
    }
}
