package dev.waitroom.queue.join;

import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * A queue entry's lifecycle (docs/design/architecture.md#queue-entry): WAITING -> OFFERED -> ACTIVE -> COMPLETED; OFFERED ->
 * EXPIRED; ACTIVE -> EXPIRED; WAITING -> LEFT. An expired offer may send the entry back to WAITING once (REQUEUE_ONCE).
 * The letter is how the state is stored in Redis (an upper-case ASCII letter: the scripts match it with {@code %u});
 * the scripts know the letters and the transitions from {@link EntryStateLua}, generated from this enum.
 */
public enum EntryState {
    WAITING('W'),
    OFFERED('O'),
    ACTIVE('A'),
    COMPLETED('C'),
    LEFT('L'),
    EXPIRED('E');

    private static final Map<EntryState, Set<EntryState>> NEXT = new EnumMap<>(EntryState.class);

    static {
        NEXT.put(WAITING, EnumSet.of(OFFERED, LEFT));
        NEXT.put(OFFERED, EnumSet.of(ACTIVE, WAITING, EXPIRED));
        NEXT.put(ACTIVE, EnumSet.of(COMPLETED, EXPIRED));
        NEXT.put(COMPLETED, EnumSet.noneOf(EntryState.class));
        NEXT.put(LEFT, EnumSet.noneOf(EntryState.class));
        NEXT.put(EXPIRED, EnumSet.noneOf(EntryState.class));
        NEXT.replaceAll((state, next) -> Collections.unmodifiableSet(next));
    }

    private final char letter;

    EntryState(char letter) {
        this.letter = letter;
    }

    public char letter() {
        return letter;
    }

    /** The states an entry in this state may move to; none for the final ones. */
    public Set<EntryState> next() {
        return NEXT.get(this);
    }

    public boolean canMoveTo(EntryState target) {
        return next().contains(target);
    }

    public static EntryState ofLetter(String letter) {
        for (EntryState s : values()) {
            if (letter.length() == 1 && s.letter == letter.charAt(0)) {
                return s;
            }
        }
        throw new IllegalStateException("unknown stored entry state " + letter);
    }
}
