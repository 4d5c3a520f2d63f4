package dev.waitroom.queue.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.queue.EventUpdateRequest;
import java.time.Instant;

/**
 * An event as the queue stores it: what the coordinator pushed (validated and normalised by {@code EventBodies}), plus what the queue itself recorded (the pre-sale
 * group frozen at opening, the draw, the offer watermark), the number waiting and when the state was last pushed.
 */
public record EventState(
        EventId eventId,
        EventUpdateRequest pushed,
        Long presaleCount,
        Instant drawCompletedAt,
        String drawSeed,
        long offerWatermark,
        long waiting,
        Instant pushedAt) {

    /** True once offers may be made: the event is open and any pre-sale group has been drawn. */
    public boolean drawComplete() {
        return pushed.phaseValue() != EventPhase.SCHEDULED
                && (presaleCount == null || presaleCount == 0 || drawCompletedAt != null);
    }

    /**
     * The seed everyone may see: only the one the coordinator revealed, never the one this queue's own draw used. With
     * regions the coordinator reveals it once every region's queue has left SCHEDULED (docs/operating/regions.md#the-draw);
     * this queue showing it after its own draw would publish it while another region still takes pre-sale entries.
     */
    public String revealedSeed() {
        return pushed.seed();
    }
}
