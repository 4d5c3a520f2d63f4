package dev.waitroom.queue.contract;

import java.util.regex.Pattern;

/** An event's id: 1..64 characters of letters, digits, '-' and '_' (never a hash-tag brace or a colon). */
public record EventId(String value) {

    private static final Pattern FORMAT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");

    public EventId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new MalformedInputException("malformed event id");
        }
    }

    /** Prefix of every Redis key of this event; the hash tag keeps the event in one cluster slot. */
    public String keyPrefix() {
        return "wr:{" + value + "}:";
    }

    @Override
    public String toString() {
        return value;
    }
}
