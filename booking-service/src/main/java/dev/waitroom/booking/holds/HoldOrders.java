package dev.waitroom.booking.holds;

/** What the holds need to know of orders (implemented in {@code orders}, which builds on holds, not the other way). */
public interface HoldOrders {

    /** Whether the hold has an order under way or paid: then its payment, not the shopper, decides its seats. */
    boolean hasLiveOrder(HoldId hold);
}
