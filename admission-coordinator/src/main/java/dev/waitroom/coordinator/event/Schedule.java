package dev.waitroom.coordinator.event;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * An event's schedule beyond its opening (docs/operating/schedules-and-pauses.md): the closing time ({@code closesAt},
 * null: none) and the planned windows, ordered by start. Validated as a whole against the event's opening time:
 * at most {@link #MAX_WINDOWS} windows, none overlapping, all within opensAt..closesAt where those are set.
 */
public record Schedule(Instant closesAt, List<PlannedWindow> windows) {

    public static final int MAX_WINDOWS = 50;

    public static final Schedule NONE = new Schedule(null, List.of());

    public Schedule {
        windows = windows == null
                ? List.of()
                : windows.stream()
                        .sorted(Comparator.comparing(PlannedWindow::startsAt))
                        .toList();
        if (windows.size() > MAX_WINDOWS) {
            throw invalid("at most " + MAX_WINDOWS + " windows");
        }
        for (int i = 1; i < windows.size(); i++) {
            PlannedWindow before = windows.get(i - 1);
            PlannedWindow after = windows.get(i);
            if (before.endsAt().isAfter(after.startsAt())) {
                throw invalid("windows overlap: the one from " + before.startsAt() + " ends after the one from "
                        + after.startsAt() + " starts");
            }
        }
        if (closesAt != null
                && !windows.isEmpty()
                && windows.get(windows.size() - 1).endsAt().isAfter(closesAt)) {
            throw invalid("every window ends by closesAt (" + closesAt + ")");
        }
    }

    /** This schedule when it fits an event opening at {@code opensAt} (null: opened or opening now). */
    public Schedule checkedAgainst(Instant opensAt) {
        if (opensAt == null) {
            return this;
        }
        if (this.closesAt != null && !this.closesAt.isAfter(opensAt)) {
            throw invalid("closesAt must be after opensAt (" + opensAt + ")");
        }
        if (!this.windows.isEmpty() && this.windows.get(0).startsAt().isBefore(opensAt)) {
            throw invalid("every window starts at or after opensAt (" + opensAt + "); before it the pre-queue holds");
        }
        return this;
    }

    /** The window in force at {@code t}, if any. */
    public Optional<PlannedWindow> at(Instant t) {
        return this.windows.stream().filter(w -> w.covers(t)).findFirst();
    }

    /**
     * What the plan holds admission by at {@code t}: an active PAUSE or QUEUE_ALL window, or, when the event has OPEN
     * windows, being outside all of them (until the next one starts; for good after the last).
     */
    public Optional<AdmissionHold> holdAt(Instant t) {
        Optional<PlannedWindow> active = at(t);
        if (active.isPresent()) {
            PlannedWindow w = active.get();
            return switch (w.kind()) {
                case PAUSE -> Optional.of(AdmissionHold.of(AdmissionHold.Cause.PLANNED_PAUSE, w.reason(), w.endsAt()));
                case QUEUE_ALL ->
                    Optional.of(AdmissionHold.of(AdmissionHold.Cause.PLANNED_QUEUE_ALL, w.reason(), w.endsAt()));
                case OPEN -> Optional.empty();
            };
        }
        List<PlannedWindow> open = this.windows.stream()
                .filter(w -> w.kind() == PlannedWindow.Kind.OPEN)
                .toList();
        if (open.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(open.stream()
                .filter(w -> w.startsAt().isAfter(t))
                .findFirst()
                .map(next -> AdmissionHold.of(AdmissionHold.Cause.PLANNED_QUEUE_ALL, next.reason(), next.startsAt()))
                .orElse(AdmissionHold.of(AdmissionHold.Cause.PLANNED_QUEUE_ALL, null, null)));
    }

    static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.INVALID_SCHEDULE, message);
    }
}
