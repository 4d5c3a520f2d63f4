package dev.waitroom.booking.outbox;

/** What the booking service owes the coordinator. */
public enum SignalKind {
    /** No seat is left in any category of the event. Sent once per event. */
    SOLD_OUT,
    /** An order was paid: the coordinator releases the session if the event's policy says so. */
    PURCHASE_COMPLETED
}
