package dev.waitroom.coordinator.queue;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

public class QueueUnavailableException extends CoordinatorException {

	public QueueUnavailableException(String message, Throwable cause) {
		super(ProblemKind.UNAVAILABLE, "queue-unavailable", message);
		initCause(cause);
	}

}
