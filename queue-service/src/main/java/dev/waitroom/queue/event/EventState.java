package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import java.time.Instant;

/**
 * An event as the queue stores it: what the coordinator pushed, plus what the queue itself recorded (the pre-sale
 * group frozen at opening, the draw, the offer watermark), the number waiting and when the state was last pushed.
 */
public record EventState(
        EventId eventId,
        EventUpdate pushed,
        Long presaleCount,
        Instant drawCompletedAt,
        String drawSeed,
        long offerWatermark,
        long waiting,
        Instant pushedAt) {

    /** True once offers may be made: the event is open and any pre-sale group has been drawn. */
    public boolean drawComplete() {
        return pushed.phase() != EventPhase.SCHEDULED
                && (presaleCount == null || presaleCount == 0 || drawCompletedAt != null);
    }

    /** The seed everyone may see: the one the coordinator revealed, or the one the completed draw used. */
    public String revealedSeed() {
        if (pushed.seed() != null) {
            return pushed.seed();
        }
        return drawCompletedAt != null ? drawSeed : null;
    }
}
