package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;
import java.util.regex.Pattern;

/**
 * A queue entry's id, also the visitor's receipt: the server sequence number that created the entry, in
 * base 36 (so "1", "a", "4gfk"). Short, and enough to recompute the pre-sale draw from the seed.
 */
public record EntryId(String value) {

    private static final Pattern FORMAT = Pattern.compile("[1-9a-z][0-9a-z]{0,9}");

    public EntryId {
        if (value == null || !FORMAT.matcher(value).matches()) {
            throw new MalformedValueException("malformed entry id");
        }
    }

    public static EntryId ofSequence(long sequence) {
        if (sequence < 1) {
            throw new IllegalArgumentException("entry sequences start at 1");
        }
        return new EntryId(Long.toString(sequence, 36));
    }

    public long sequence() {
        return Long.parseLong(value, 36);
    }

    @Override
    public String toString() {
        return value;
    }
}
