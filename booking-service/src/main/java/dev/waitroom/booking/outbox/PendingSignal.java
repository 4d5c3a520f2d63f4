package dev.waitroom.booking.outbox;

import dev.waitroom.contract.EventId;
import java.util.UUID;

/**
 * A signal not yet delivered. {@code sessionId} and {@code orderId} are set for PURCHASE_COMPLETED only;
 * {@code revision} counts the re-arms of a CATEGORIES signal (0 for the other kinds).
 */
public record PendingSignal(
        UUID id, SignalKind kind, EventId eventId, String sessionId, UUID orderId, int attempts, int revision) {}
