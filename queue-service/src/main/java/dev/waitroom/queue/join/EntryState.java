package dev.waitroom.queue.join;

import java.util.EnumSet;
import java.util.Set;

/**
 * A queue entry's lifecycle (docs/ARCHITECTURE.md#queue-entry): WAITING -> OFFERED -> ACTIVE -> COMPLETED; OFFERED ->
 * EXPIRED; ACTIVE -> EXPIRED; WAITING -> LEFT. An expired offer may send the entry back to WAITING once (REQUEUE_ONCE).
 * The letter is how the state is stored in Redis.
 */
public enum EntryState {
    WAITING('W'), OFFERED('O'), ACTIVE('A'), COMPLETED('C'), LEFT('L'), EXPIRED('E');

    private final char letter;

    EntryState(char letter) {
        this.letter = letter;
    }

    public char letter() {
        return letter;
    }

    /** States from which an entry may move to this one. */
    public Set<EntryState> allowedFrom() {
        return switch (this) {
            case WAITING -> EnumSet.of(OFFERED);
            case OFFERED -> EnumSet.of(WAITING);
            case ACTIVE -> EnumSet.of(OFFERED);
            case COMPLETED -> EnumSet.of(ACTIVE);
            case LEFT -> EnumSet.of(WAITING);
            case EXPIRED -> EnumSet.of(OFFERED, ACTIVE);
        };
    }

    public boolean canMoveTo(EntryState target) {
        return target.allowedFrom().contains(this);
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
