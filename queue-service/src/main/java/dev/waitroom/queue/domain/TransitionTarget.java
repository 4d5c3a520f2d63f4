package dev.waitroom.queue.domain;

/** Where the coordinator moves an entry; OFFER_EXPIRED lets the event's expired-offer policy decide. */
public enum TransitionTarget {
    ACTIVE, COMPLETED, EXPIRED, OFFER_EXPIRED;

    public static TransitionTarget parse(String value) {
        return Phase.parseEnum(TransitionTarget.class, value, "transition target");
    }
}
