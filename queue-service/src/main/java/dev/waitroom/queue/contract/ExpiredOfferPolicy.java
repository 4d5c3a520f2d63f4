package dev.waitroom.queue.contract;

/** What an unclaimed offer does: back of the queue once, then dropped (default); or dropped at once. */
public enum ExpiredOfferPolicy {
    REQUEUE_ONCE, DROP;

    public static ExpiredOfferPolicy parse(String value) {
        return value == null ? REQUEUE_ONCE : Phase.parseEnum(ExpiredOfferPolicy.class, value, "expiredOfferPolicy");
    }
}
