package dev.waitroom.queue.admission;

import dev.waitroom.queue.contract.MalformedInputException;

/** Where the coordinator moves an entry; OFFER_EXPIRED lets the event's expired-offer policy decide. */
public enum TransitionTarget {
    ACTIVE, COMPLETED, EXPIRED, OFFER_EXPIRED;

    public static TransitionTarget parse(String value) {
        try {
            return valueOf(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new MalformedInputException("unknown transition target");
        }
    }
}
