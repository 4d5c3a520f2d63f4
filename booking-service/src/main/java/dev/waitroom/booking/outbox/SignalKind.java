package dev.waitroom.booking.outbox;

/** What the booking service owes the coordinator. */
public enum SignalKind {
    /**
     * No seat is left in any category of the event. Sent once per sold-out: again when the event sells out after its
     * inventory grew.
     */
    SOLD_OUT,
    /** An order was paid: the coordinator releases the session if the event's policy says so. */
    PURCHASE_COMPLETED,
    /**
     * A seat category of the event ran out of seats that can be taken, or has some again: the coordinator is sent the
     * seats available per category, counted when the signal is delivered. One row per event, re-armed by each such
     * change (docs/design/sale-rules/seat-categories.md).
     */
    CATEGORIES
}
