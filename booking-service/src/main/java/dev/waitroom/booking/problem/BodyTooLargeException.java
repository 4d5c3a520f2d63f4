package dev.waitroom.booking.problem;

import java.io.IOException;

/** Thrown while reading a request body that turns out longer than the configured limit. */
final class BodyTooLargeException extends IOException {

    private static final long serialVersionUID = 1L;

    BodyTooLargeException(long limit) {
        super("request body exceeds " + limit + " bytes");
    }
}
