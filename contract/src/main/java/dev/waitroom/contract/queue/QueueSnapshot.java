package dev.waitroom.contract.queue;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import java.time.Instant;
import java.util.List;

/**
 * The answer to {@code GET /internal/events/{eventId}/snapshot} ({@link QueuePaths#SNAPSHOT}): the gateway's edge
 * snapshot (docs/design/architecture.md#the-edge-snapshot). For an order key k: the WAITING entries ahead are at least the
 * sum of the counts of buckets whose maxOrderKey is below k, and at most that plus the count of the bucket holding k
 * (minus one when k itself waits). {@code offerWatermark} is the highest order key ever offered;
 * {@code admissionRatePerSecond} is the pace the coordinator pushed. {@code drawComplete} is true once the order is
 * final: after the pre-sale draw, or at opening when there was no pre-sale group ({@code drawCompletedAt} stays null).
 *
 * <p>{@code offerWatermark}, {@code drawComplete} and {@code waiting} are boxed because the gateway read the first two
 * as optional and not the third before this record; the queue-service always sends them. A missing bucket list reads
 * as empty, a missing {@code joinGate} as {@link JoinGate#OPEN}, missing {@code soldOutCategories} (the seat categories
 * booking reported sold out, issue 17) as none. {@code pace} is the measured offer pace the coordinator pushed
 * (docs/design/estimates.md), null before any was pushed: the edge estimates with it exactly as the queue-service does.
 * {@code modeStatement} is the coordinator's signed statement of the mode as last pushed (opaque here, null when none):
 * the gateway lets requests through in BYPASS only when it verifies (docs/design/security/signed-mode.md).
 * {@code admissionHold} is why offers are held back as last pushed ({@link AdmissionHold}, null: they are not); the
 * edge puts it in the visitor status.
 */
public record QueueSnapshot(
        String eventId,
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        long saleGeneration,
        double admissionRatePerSecond,
        Long offerWatermark,
        Instant drawCompletedAt,
        Boolean drawComplete,
        Long presaleCount,
        Long waiting,
        List<WaitingBucket> waitingBuckets,
        Instant generatedAt,
        JoinGate joinGate,
        List<String> soldOutCategories,
        Pace pace,
        String modeStatement,
        AdmissionHold admissionHold) {

    public QueueSnapshot {
        waitingBuckets = waitingBuckets == null ? List.of() : List.copyOf(waitingBuckets);
        joinGate = joinGate == null ? JoinGate.OPEN : joinGate;
        soldOutCategories = soldOutCategories == null ? List.of() : List.copyOf(soldOutCategories);
    }

    /** Whether a ticket issued at {@code issuedAt} holds a final order key (issued after any draw). */
    public boolean orderFinalFor(Instant issuedAt) {
        if (drawCompletedAt != null) {
            return issuedAt.isAfter(drawCompletedAt);
        }
        return Boolean.TRUE.equals(drawComplete) && phase != EventPhase.SCHEDULED;
    }
}
