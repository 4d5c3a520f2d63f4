package dev.waitroom.queue.admission;

import dev.waitroom.queue.contract.MalformedInputException;
import dev.waitroom.queue.join.EntryState;

/** Where the coordinator moves an entry; OFFER_EXPIRED lets the event's expired-offer policy decide. */
public enum TransitionTarget {
    ACTIVE(EntryState.ACTIVE), COMPLETED(EntryState.COMPLETED), EXPIRED(EntryState.EXPIRED),
    /** No state of its own: WAITING again at the back of the queue, or EXPIRED, as the expired-offer policy says. */
    OFFER_EXPIRED(null);

    private final EntryState state;

    TransitionTarget(EntryState state) {
        this.state = state;
    }

    /** The state this target moves an entry to, or null for OFFER_EXPIRED. */
    public EntryState state() {
        return state;
    }

    public static TransitionTarget parse(String value) {
        try {
            return valueOf(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new MalformedInputException("unknown transition target");
        }
    }
}
