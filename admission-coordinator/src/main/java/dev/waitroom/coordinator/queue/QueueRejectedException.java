package dev.waitroom.coordinator.queue;

import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.problems.ProblemKind;

/** The queue service answered, and refused the call (4xx): repeating it will not help. */
public class QueueRejectedException extends CoordinatorException {

	public QueueRejectedException(String message, Throwable cause) {
		super(ProblemKind.CONFLICT, "queue-rejected", message);
		initCause(cause);
	}

}
