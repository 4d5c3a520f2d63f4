package dev.waitroom.queue.join;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.Pace;
import java.time.Instant;

/**
 * One visitor's entry as read in one atomic step, with the event around it.
 *
 * @param ahead WAITING entries ahead of this one, or -1 when unknown (not waiting, or order not drawn yet)
 * @param pace the offer pace the coordinator measured, null when none was pushed (docs/estimates.md)
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
        Pace pace) {}
