package dev.waitroom.coordinator.queue;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;

public class QueueUnavailableException extends CoordinatorException {

    public QueueUnavailableException(String message, Throwable cause) {
        super(ProblemType.QUEUE_UNAVAILABLE, message, cause);
    }
}
