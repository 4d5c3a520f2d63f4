package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;

/**
 * Where the coordinator moves a queue entry ({@link EntryTransition}). OFFER_EXPIRED lets the event's expired-offer
 * policy decide: back of the queue once as WAITING (REQUEUE_ONCE), else EXPIRED. OFFER_WITHDRAWN gives a withdrawn
 * offer's place back: WAITING again under the same order key (the event sold out; a new round offers it again).
 */
public enum TransitionTarget {
    ACTIVE,
    COMPLETED,
    EXPIRED,
    OFFER_EXPIRED,
    OFFER_WITHDRAWN;

    /** The target named on the wire; unknown or missing is a {@link MalformedValueException}. */
    public static TransitionTarget parse(String value) {
        for (TransitionTarget target : values()) {
            if (target.name().equals(value)) {
                return target;
            }
        }
        throw new MalformedValueException("unknown transition target");
    }
}
