package dev.waitroom.contract.coordinator;

/**
 * The coordinator's internal routes for booking, as URI templates for the client and as mapping constants for its
 * controllers. Every variable is named as the controllers bind it ({@code eventId}, {@code sessionId}).
 */
public final class CoordinatorPaths {

    /** {@code POST}, every second: booking's health ({@link HealthReport}); answered 204. */
    public static final String HEALTH = "/internal/health";

    /**
     * {@code POST}, every second from each gateway instance: what the edge measured of the shop origins it forwarded
     * to, per event ({@link EdgeHealthReport}); answered 204.
     */
    public static final String EDGE_HEALTH = "/internal/edge-health";

    /** {@code POST}: no seat is left ({@link SoldOut} -> {@link SoldOutResult}). */
    public static final String SOLD_OUT = "/internal/events/{eventId}/sold-out";

    /**
     * {@code PUT}: seats still unsold per category ({@link SeatCategories}), sent by booking when a category's count
     * reaches or leaves 0 and with every sold-out check; answered 204. The coordinator publishes the sold-out ones.
     */
    public static final String CATEGORIES = "/internal/events/{eventId}/categories";

    /** {@code POST}: an order was paid ({@link PurchaseCompleted} -> {@link PurchaseCompletedResult}). */
    public static final String PURCHASE_COMPLETED =
            "/internal/events/{eventId}/sessions/{sessionId}/purchase-completed";

    private CoordinatorPaths() {}
}
