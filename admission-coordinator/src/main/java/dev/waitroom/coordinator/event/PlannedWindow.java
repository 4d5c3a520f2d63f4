package dev.waitroom.coordinator.event;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.TextFields;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Instant;

/**
 * One planned window of an event's schedule (docs/operating/schedules-and-pauses.md): from {@code startsAt} to {@code
 * endsAt}, with the reason the waiting page shows. Validates itself.
 */
public record PlannedWindow(Kind kind, Instant startsAt, Instant endsAt, String reason) {

    /** The longest reason, in characters: the page shows it in one line beside the planned end. */
    public static final int MAX_REASON = 200;

    /** What a window does while it is in force. */
    public enum Kind {
        /** Everyone queues, even with capacity free: joins are taken, no offers are made until it ends. */
        QUEUE_ALL,
        /** Admission pauses as {@code POST /pause} does (offers held, places kept) and resumes at its end. */
        PAUSE,
        /** When an event has OPEN windows, offers are made only inside them; outside, everyone queues. */
        OPEN
    }

    public PlannedWindow {
        if (kind == null || startsAt == null || endsAt == null) {
            throw Schedule.invalid("every window needs kind (QUEUE_ALL, PAUSE or OPEN), startsAt and endsAt");
        }
        if (!endsAt.isAfter(startsAt)) {
            throw Schedule.invalid("a window's endsAt must be after its startsAt (" + startsAt + ")");
        }
        reason = TextFields.required(ProblemType.INVALID_SCHEDULE, "reason", reason, MAX_REASON);
    }

    /** Whether the window is in force at {@code t}: from its start, up to but not including its end. */
    public boolean covers(Instant t) {
        return !t.isBefore(this.startsAt) && t.isBefore(this.endsAt);
    }

    static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.INVALID_SCHEDULE, message);
    }
}
