package dev.waitroom.contract;

/** What an unclaimed offer does: back of the queue once, then dropped (the default); or dropped at once. */
public enum ExpiredOfferPolicy {
    REQUEUE_ONCE,
    DROP;

    public static final ExpiredOfferPolicy DEFAULT = REQUEUE_ONCE;

    /** The value named on the wire, {@link #DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public static ExpiredOfferPolicy parse(String value) {
        return value == null ? DEFAULT : WireEnums.parse(ExpiredOfferPolicy.class, value, "expiredOfferPolicy");
    }
}
