package dev.waitroom.contract;

/**
 * The one rule for free text a client or operator sends and a service stores or shows (an event name, a reason, an
 * announcement): at most a given number of characters, and none that is invisible or rewrites what follows it. Refused
 * are control characters (C0 including NUL, DEL, C1; so also line breaks and tabs: every such field is one line), an
 * unpaired surrogate (not text at all; PostgreSQL refuses NUL and a driver would replace the surrogate), the Unicode
 * line and paragraph separators, and the bidirectional embedding, override and isolate marks (they reorder what a log
 * line or a page shows after them), wherever they stand: only spaces around the text are trimmed. A refusal is a
 * {@link MalformedValueException} naming the field, never the value.
 *
 * <p>Lengths are counted in characters (code points), as PostgreSQL counts them.
 */
public final class TextFields {

    private TextFields() {}

    /**
     * {@code value} stripped of surrounding white space when it is a non-blank single line of at most {@code maxLength}
     * characters without an unsafe one; otherwise a {@link MalformedValueException} of {@code problem} naming
     * {@code field}.
     */
    public static String required(ProblemType problem, String field, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            throw new MalformedValueException(problem, field + " is required");
        }
        return checked(problem, field, value, maxLength);
    }

    /** {@link #required(ProblemType, String, String, int)} answered as a malformed request. */
    public static String required(String field, String value, int maxLength) {
        return required(ProblemType.MALFORMED_REQUEST, field, value, maxLength);
    }

    /**
     * {@code value} stripped, or null when it is null or blank; a present value follows the rule of
     * {@link #required(ProblemType, String, String, int)}.
     */
    public static String optional(ProblemType problem, String field, String value, int maxLength) {
        if (value == null || value.isBlank()) {
            return null;
        }
        return checked(problem, field, value, maxLength);
    }

    /** {@link #optional(ProblemType, String, String, int)} answered as a malformed request. */
    public static String optional(String field, String value, int maxLength) {
        return optional(ProblemType.MALFORMED_REQUEST, field, value, maxLength);
    }

    /** Whether {@code value} is at most {@code maxLength} characters, none of them unsafe; null is not. */
    public static boolean isSafe(String value, int maxLength) {
        return value != null && firstUnsafe(value) < 0 && fitsLength(value, maxLength);
    }

    /** The index of the first unsafe char of {@code value} (see the class comment), or -1 when there is none. */
    public static int firstUnsafe(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c >= 0x20 && c < 0x7F) {
                continue;
            }
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return i;
            }
            if (isUnsafe(c)) {
                return i;
            }
        }
        return -1;
    }

    private static String checked(ProblemType problem, String field, String value, int maxLength) {
        String stripped = value.strip();
        if (!fitsLength(stripped, maxLength)) {
            throw new MalformedValueException(problem, field + " is at most " + maxLength + " characters");
        }
        // the whole value: a line break or NUL at either end is refused too, not trimmed away
        if (firstUnsafe(value) >= 0) {
            throw new MalformedValueException(
                    problem,
                    field + " contains a control character, a line break or a bidirectional mark; it is one line of"
                            + " plain text");
        }
        return stripped;
    }

    private static boolean fitsLength(String value, int maxLength) {
        // chars are at least as many as code points: most values need no count
        return value.length() <= maxLength || value.codePointCount(0, value.length()) <= maxLength;
    }

    private static boolean isUnsafe(char c) {
        return c < 0x20
                || (c >= 0x7F && c <= 0x9F)
                || Character.isLowSurrogate(c)
                || c == '\u2028'
                || c == '\u2029'
                || (c >= '\u202A' && c <= '\u202E')
                || (c >= '\u2066' && c <= '\u2069');
    }
}
