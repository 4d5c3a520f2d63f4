package dev.waitroom.queue.contract;

import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/** The sale phase: SCHEDULED (pre-sale) -> OPEN -> ENDED; a phase never goes back. */
public enum Phase {
    SCHEDULED, OPEN, ENDED;

    /** Phases this one may follow (a phase may always repeat: pushes are idempotent). */
    public Set<Phase> mayFollow() {
        return Arrays.stream(values()).filter(p -> p.ordinal() <= ordinal()).collect(Collectors.toUnmodifiableSet());
    }

    public static Phase parse(String value) {
        return parseEnum(Phase.class, value, "phase");
    }

    static <E extends Enum<E>> E parseEnum(Class<E> type, String value, String what) {
        try {
            return Enum.valueOf(type, value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new MalformedInputException("unknown " + what);
        }
    }
}
