package dev.waitroom.contract;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;

/**
 * An event's id, the same rule in every service: 1-64 letters, digits, '_' or '-', starting with a letter or digit.
 * Never a brace, a colon or a dot, so it is safe inside a Redis hash tag ({@code wr:{eventId}:...}) and in a path.
 */
public record EventId(String value) {

    public static final int MAX_LENGTH = 64;

    /**
     * The prefix of the private events a service warms its hot paths on before it reports ready
     * (docs/operating/running.md, "Warm-up before ready"): the coordinator creates no event whose id starts with it, so
     * no operator's event can share a warm-up's Redis keys, and a warm-up deletes every key of its event after.
     */
    public static final String WARM_UP_PREFIX = "warmup--";

    private static final SecureRandom RANDOM = new SecureRandom();

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

    /** A new private warm-up event: {@link #WARM_UP_PREFIX} and 128 random bits, never one an operator made. */
    public static EventId warmUp() {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return new EventId(WARM_UP_PREFIX + HexFormat.of().formatHex(random));
    }

    /** Whether this is a warm-up's private event, which the coordinator refuses to create. */
    public boolean isWarmUp() {
        return value.startsWith(WARM_UP_PREFIX);
    }

    /**
     * Whether {@code value} is an event id. Written out rather than a regular expression: every request of a sale
     * names an event, and the expression's matcher was 3.5 % of the gateway's CPU in the opening minute (issue #29).
     */
    public static boolean isValid(String value) {
        if (value == null || value.isEmpty() || value.length() > MAX_LENGTH) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && (i == 0 || (c != '_' && c != '-'))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return value;
    }
}
