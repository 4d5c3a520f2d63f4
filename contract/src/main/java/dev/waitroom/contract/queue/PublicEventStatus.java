package dev.waitroom.contract.queue;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import java.time.Instant;

/**
 * The public event status, {@code GET /events/{eventId}/status}: the same for every visitor, cacheable for a second;
 * the waiting page reads it and the gateway's test double of the queue-service imitates it. {@code commitment} is the
 * SHA-256 of the draw seed, published before opening; {@code seed} appears once revealed, so anyone can check the
 * draw. {@code queueLength} is the band of {@link QueueStatus.Position#around} over the WAITING entries.
 */
public record PublicEventStatus(
        String eventId,
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        double admissionRatePerSecond,
        QueueLength queueLength,
        String commitment,
        String seed,
        Instant drawCompletedAt,
        Long presaleCount,
        Instant opensAt) {

    /** How many entries wait: a band, never an exact count. */
    public record QueueLength(long min, long max) {}
}
