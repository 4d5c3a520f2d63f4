package dev.waitroom.contract.coordinator;

import dev.waitroom.contract.MalformedValueException;

/**
 * Body of {@code POST /internal/events/{eventId}/sessions/{sessionId}/purchase-completed}
 * ({@link CoordinatorPaths#PURCHASE_COMPLETED}): the paid order (booking sends a UUID). The coordinator releases the
 * session when the event's {@code afterPurchase} is RELEASE.
 */
public record PurchaseCompleted(String orderId) {

    public static final int MAX_ORDER_ID = 100;

    /**
     * This body when it names an order (1..{@value #MAX_ORDER_ID} characters, not blank), else a
     * {@link MalformedValueException} (malformed request).
     */
    public PurchaseCompleted validated() {
        if (orderId == null || orderId.isBlank() || orderId.length() > MAX_ORDER_ID) {
            throw new MalformedValueException("orderId is required.");
        }
        return this;
    }
}
