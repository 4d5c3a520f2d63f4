package dev.waitroom.queue.event;

import dev.waitroom.queue.status.PositionBand;
import java.time.Instant;

/**
 * The public event status: the same for every visitor, cacheable for a second. {@code commitment} is the
 * SHA-256 of the draw seed, published before opening; {@code seed} appears once revealed, so anyone can check
 * the draw.
 */
record PublicEventStatus(String eventId, String phase, String mode, String announcement, double admissionRatePerSecond,
        QueueLength queueLength, String commitment, String seed, Instant drawCompletedAt, Long presaleCount, Instant opensAt) {

    record QueueLength(long min, long max) {
    }

    static PublicEventStatus of(EventState e) {
        PositionBand band = PositionBand.around(e.waiting());
        return new PublicEventStatus(e.eventId().value(), e.phase().name(), e.mode().name(), e.announcement(),
                e.admissionRatePerSecond(), new QueueLength(band.aheadMin(), band.aheadMax()), e.commitment(),
                e.revealedSeed(), e.drawCompletedAt(), e.presaleCount(), e.opensAt());
    }
}
