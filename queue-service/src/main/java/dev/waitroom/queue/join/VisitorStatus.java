package dev.waitroom.queue.join;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.Pace;
import java.time.Instant;

/**
 * One visitor's entry as read in one atomic step, with the event around it.
 *
 * @param ahead WAITING entries ahead of this one, or -1 when unknown (not waiting, or order not drawn yet)
 * @param pace the offer pace the coordinator measured, null when none was pushed (docs/design/estimates.md)
 * @param pushedAt when the coordinator last pushed the event's state, null if never recorded
 * @param admissionHold why offers are held back while the event is open, null when they are not
 * @param lane the lane the entry stands in ({@link LaneName#GENERAL} without a redeemed access code); {@code ahead}
 *     counts that lane's entries only
 */
public record VisitorStatus(
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        double admissionRatePerSecond,
        long waiting,
        EntryId entryId,
        EntryState state,
        long orderKey,
        long ahead,
        Instant offerExpiresAt,
        Pace pace,
        Instant pushedAt,
        AdmissionHold admissionHold,
        LaneName lane) {

    /** This status shown with {@code shown} as the event's mode (a silent gate shows PAUSED). */
    public VisitorStatus withMode(OperatingMode shown) {
        return shown == this.mode
                ? this
                : new VisitorStatus(
                        this.phase,
                        shown,
                        this.announcement,
                        this.admissionRatePerSecond,
                        this.waiting,
                        this.entryId,
                        this.state,
                        this.orderKey,
                        this.ahead,
                        this.offerExpiresAt,
                        this.pace,
                        this.pushedAt,
                        this.admissionHold,
                        this.lane);
    }
}
