package dev.waitroom.booking.catalogue;

/**
 * Conditions on a {@code seats} row's state, written once from {@link SeatState} for every query that needs them
 * (columns unqualified: use them where {@code seats} is the only table with {@code state} and {@code held_until}).
 */
public final class SeatConditions {

    /** A seat can be taken: free, or held by a hold whose deadline has passed (lazy expiry). */
    public static final String TAKEABLE =
            "(state = '" + SeatState.AVAILABLE + "' OR (state = '" + SeatState.HELD + "' AND held_until <= now()))";

    /** A seat the hold {@code :h} can buy: takeable, or still held by that hold even past its deadline. */
    public static final String SELLABLE_TO_HOLD = "(state = '" + SeatState.AVAILABLE + "' OR (state = '"
            + SeatState.HELD + "' AND (hold_id = :h OR held_until <= now())))";

    /** A seat not sold yet. */
    public static final String UNSOLD = "state <> '" + SeatState.SOLD + "'";

    private SeatConditions() {}
}
