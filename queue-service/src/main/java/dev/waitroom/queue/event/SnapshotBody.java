package dev.waitroom.queue.event;

import java.time.Instant;
import java.util.List;

/**
 * The gateway's edge snapshot (docs/ARCHITECTURE.md#the-edge-snapshot). For an order key k: the WAITING entries ahead
 * are at least the sum of the counts of buckets whose maxOrderKey is below k, and at most that plus the count of the
 * bucket holding k (minus one when k itself waits). {@code offerWatermark} is the highest order key ever offered.
 */
record SnapshotBody(String eventId, String phase, String mode, String announcement, long saleGeneration,
        double admissionRatePerSecond, long offerWatermark, Instant drawCompletedAt, boolean drawComplete, Long presaleCount,
        long waiting, List<WaitingBucket> waitingBuckets, Instant generatedAt) {

    static SnapshotBody of(Snapshot s) {
        EventState e = s.event();
        return new SnapshotBody(e.eventId().value(), e.phase().name(), e.mode().name(), e.announcement(), e.saleGeneration(),
                e.admissionRatePerSecond(), e.offerWatermark(), e.drawCompletedAt(), e.drawComplete(), e.presaleCount(),
                e.waiting(), s.waitingBuckets(), s.generatedAt());
    }
}
