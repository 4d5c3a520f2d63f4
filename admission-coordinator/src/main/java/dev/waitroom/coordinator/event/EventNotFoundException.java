package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;

public class EventNotFoundException extends CoordinatorException {

    public EventNotFoundException(EventId id) {
        super(ProblemType.UNKNOWN_EVENT, "No event with id " + id + ".");
    }
}
