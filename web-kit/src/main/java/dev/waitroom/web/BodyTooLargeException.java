package dev.waitroom.web;

import java.io.IOException;

/**
 * Thrown by the request body stream once more than the limit has been read (a chunked body, which declares no
 * length). It reaches the handler wrapped by whatever read the body; {@link ProblemHandler} finds it in the cause chain
 * and answers 413.
 */
public final class BodyTooLargeException extends IOException {

    private static final long serialVersionUID = 1L;

    private final long limit;

    BodyTooLargeException(long limit) {
        super("request body over " + limit + " bytes");
        this.limit = limit;
    }

    /** The limit, in bytes. */
    public long limit() {
        return limit;
    }

    /** The exception in a cause chain, or {@code null}. */
    public static BodyTooLargeException findIn(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException tooLarge) {
                return tooLarge;
            }
        }
        return null;
    }
}
