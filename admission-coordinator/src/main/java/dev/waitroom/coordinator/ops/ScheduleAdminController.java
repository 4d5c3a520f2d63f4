package dev.waitroom.coordinator.ops;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.ops.Operator;
import dev.waitroom.coordinator.event.EventSchedules;
import dev.waitroom.coordinator.event.PlannedWindow;
import dev.waitroom.coordinator.event.Schedule;
import dev.waitroom.coordinator.event.Schedules;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Instant;
import java.util.List;
import org.springframework.http.CacheControl;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * An event's schedule in the ops API (docs/operating/schedules-and-pauses.md): {@code PUT} replaces the closing time
 * and the planned windows as a whole, with a reason; {@code GET} reads them with the schedule's audit.
 */
@RestController
@RequestMapping("/admin/events/{eventId}/schedule")
class ScheduleAdminController {

    private final EventSchedules schedules;

    private final Schedules store;

    ScheduleAdminController(EventSchedules schedules, Schedules store) {
        this.schedules = schedules;
        this.store = store;
    }

    @GetMapping
    ResponseEntity<ScheduleView> get(@PathVariable String eventId) {
        EventId id = EventId.of(eventId);
        Schedule schedule = this.schedules.of(id);
        return ResponseEntity.ok()
                .cacheControl(CacheControl.noStore())
                .body(ScheduleView.of(schedule, this.store.changes(id)));
    }

    @PutMapping
    ScheduleView put(@PathVariable String eventId, @RequestBody ScheduleBody body, Operator operator) {
        if (body == null) {
            throw invalid("a JSON body with \"closesAt\", \"windows\" and \"reason\" is required");
        }
        if (body.reason() == null || body.reason().isBlank()) {
            throw invalid("a reason is required: every schedule change is recorded with who, when and why");
        }
        if (body.reason().length() > 500) {
            throw invalid("reasons are at most 500 characters");
        }
        List<WindowBody> windows = body.windows() == null ? List.of() : body.windows();
        if (windows.size() > Schedule.MAX_WINDOWS) {
            throw new CoordinatorException(
                    ProblemType.INVALID_SCHEDULE, "at most " + Schedule.MAX_WINDOWS + " windows");
        }
        Schedule schedule = new Schedule(
                body.closesAt(),
                windows.stream()
                        .map(w -> {
                            if (w == null) {
                                throw new CoordinatorException(ProblemType.INVALID_SCHEDULE, "a window is null");
                            }
                            return new PlannedWindow(w.kind(), w.startsAt(), w.endsAt(), w.reason());
                        })
                        .toList());
        EventId id = EventId.of(eventId);
        Schedule set =
                this.schedules.set(id, schedule, operator.name(), body.reason().strip());
        return ScheduleView.of(set, this.store.changes(id));
    }

    private static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.MALFORMED_REQUEST, message);
    }

    record ScheduleBody(Instant closesAt, List<WindowBody> windows, String reason) {}

    record WindowBody(PlannedWindow.Kind kind, Instant startsAt, Instant endsAt, String reason) {}

    record ScheduleView(Instant closesAt, List<WindowBody> windows, List<Schedules.Change> changes) {

        static ScheduleView of(Schedule s, List<Schedules.Change> changes) {
            return new ScheduleView(
                    s.closesAt(),
                    s.windows().stream()
                            .map(w -> new WindowBody(w.kind(), w.startsAt(), w.endsAt(), w.reason()))
                            .toList(),
                    changes);
        }
    }
}
