package dev.waitroom.booking;

import java.util.Objects;
import java.util.regex.Pattern;

/** An event's id as it appears in paths: 1-64 characters of letters, digits, '.', '_' and '-'. */
public record EventId(String value) {

    private static final Pattern SHAPE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

    public EventId {
        Objects.requireNonNull(value, "event id");
        if (!SHAPE.matcher(value).matches()) {
            throw new IllegalArgumentException("malformed event id");
        }
    }

    public static EventId of(String value) {
        return new EventId(value);
    }

    @Override
    public String toString() {
        return value;
    }
}
