package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import java.time.Instant;

/** An event as the queue stores it: what the coordinator pushed plus what the queue itself recorded. */
public record EventState(
        EventId eventId,
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        long saleGeneration,
        String commitment,
        String seed,
        IdentityScope identityScope,
        ExpiredOfferPolicy expiredOfferPolicy,
        PresaleOrdering presaleOrdering,
        double admissionRatePerSecond,
        long offerTtlSeconds,
        Instant opensAt,
        Long presaleCount,
        Instant drawCompletedAt,
        String drawSeed,
        long offerWatermark,
        long waiting) {

    /** True once offers may be made: the event is open and any pre-sale group has been drawn. */
    public boolean drawComplete() {
        return phase != EventPhase.SCHEDULED && (presaleCount == null || presaleCount == 0 || drawCompletedAt != null);
    }

    /** The seed everyone may see: the one the coordinator revealed, or the one the completed draw used. */
    public String revealedSeed() {
        if (seed != null) {
            return seed;
        }
        return drawCompletedAt != null ? drawSeed : null;
    }
}
