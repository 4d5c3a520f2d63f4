package dev.waitroom.coordinator.queue;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;

/** The queue service answered, and refused the call (4xx): repeating it will not help. */
public class QueueRejectedException extends CoordinatorException {

    public QueueRejectedException(String message, Throwable cause) {
        super(ProblemType.QUEUE_REJECTED, message, cause);
    }
}
