package dev.waitroom.coordinator.event;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

public class EventNotFoundException extends CoordinatorException {

	public EventNotFoundException(EventId id) {
		super(ProblemKind.NOT_FOUND, "event-not-found", "No event with id " + id + ".");
	}

}
