package dev.waitroom.queue.web;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.web.ProblemException;
import java.time.Duration;

/**
 * An expected refusal that a retry after {@code retryAfter} may overcome (a join over the event's ceiling): answered
 * as its problem with {@code Retry-After} in whole seconds, at least 1.
 */
public class RetryLaterException extends ProblemException {

    private static final long serialVersionUID = 1L;

    private final Duration retryAfter;

    public RetryLaterException(ProblemType problem, String detail, Duration retryAfter) {
        super(problem, detail);
        this.retryAfter = retryAfter;
    }

    /** Whole seconds, rounded up, at least 1. */
    public long retryAfterSeconds() {
        long seconds = retryAfter.toSeconds() + (retryAfter.toNanosPart() > 0 ? 1 : 0);
        return Math.max(1, seconds);
    }
}
