package dev.waitroom.contract;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * An event's id, the same rule in every service: 1-64 letters, digits, '_' or '-', starting with a letter or digit.
 * Never a brace, a colon or a dot, so it is safe inside a Redis hash tag ({@code wr:{eventId}:...}) and in a path.
 */
public record EventId(String value) {

    public static final int MAX_LENGTH = 64;

    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0," + (MAX_LENGTH - 1) + "}");

    public EventId {
        if (!isValid(value)) {
            throw new MalformedValueException(
                    ProblemType.INVALID_EVENT_ID,
                    "Event ids are 1-64 letters, digits, '_' or '-', starting with a letter or digit.");
        }
    }

    public static EventId of(String value) {
        return new EventId(value);
    }

    /** The id, or empty when {@code value} is not one; for callers that answer a bad id themselves. */
    public static Optional<EventId> parse(String value) {
        return isValid(value) ? Optional.of(new EventId(value)) : Optional.empty();
    }

    public static boolean isValid(String value) {
        return value != null
                && value.length() <= MAX_LENGTH
                && FORMAT.matcher(value).matches();
    }

    @Override
    public String toString() {
        return value;
    }
}
