package dev.waitroom.contract;

/**
 * What a purchase does to the buyer's shopping session and queue place: {@code RELEASE} (the default) ends the session
 * at once and frees its capacity, and the visitor may join the queue again for another purchase; {@code KEEP} keeps the
 * session until it expires, and the place is spent.
 */
public enum AfterPurchase {
    RELEASE,
    KEEP;

    public static final AfterPurchase DEFAULT = RELEASE;

    /** The value named on the wire, {@link #DEFAULT} when missing; unknown is a {@link MalformedValueException}. */
    public static AfterPurchase parse(String value) {
        return value == null ? DEFAULT : WireEnums.parse(AfterPurchase.class, value, "afterPurchase");
    }
}
