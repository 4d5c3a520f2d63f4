package dev.waitroom.contract;

import java.util.regex.Pattern;

/**
 * The name of a lane of an event's queue (docs/operating/lanes-and-access-codes.md): {@code [a-z][a-z0-9-]{0,31}}.
 * {@link #GENERAL} is every event's implicit lane, the one a visitor without a code stands in; it cannot be declared.
 */
public record LaneName(String value) {

    private static final Pattern FORM = Pattern.compile("[a-z][a-z0-9-]{0,31}");

    /** The lane of every visitor who redeemed no code; it takes the share of the rate the declared lanes leave. */
    public static final LaneName GENERAL = new LaneName("general");

    public LaneName {
        if (!isValid(value)) {
            throw new MalformedValueException(
                    ProblemType.INVALID_LANES, "A lane name is 1 to 32 characters of a-z, 0-9 and '-', from a letter.");
        }
    }

    public static LaneName of(String value) {
        return new LaneName(value);
    }

    public static boolean isValid(String value) {
        return value != null && FORM.matcher(value).matches();
    }

    public boolean isGeneral() {
        return GENERAL.value.equals(this.value);
    }

    @Override
    public String toString() {
        return this.value;
    }
}
