package dev.waitroom.booking.sale;

/** What selling a hold's seats did. */
public enum SaleOutcome {
    /** Every seat of the hold is now sold to the order. */
    SOLD,
    /** At least one seat went to someone else after the hold lapsed: nothing was sold. */
    SEATS_GONE
}
