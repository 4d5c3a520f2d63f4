package dev.waitroom.booking.outbox;

import java.util.UUID;

import dev.waitroom.contract.EventId;

/** A signal not yet delivered. {@code sessionId} and {@code orderId} are set for PURCHASE_COMPLETED only. */
public record PendingSignal(UUID id, SignalKind kind, EventId eventId, String sessionId, UUID orderId, int attempts) {
}
