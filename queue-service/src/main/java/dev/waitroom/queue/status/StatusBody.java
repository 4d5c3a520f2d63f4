package dev.waitroom.queue.status;

import dev.waitroom.queue.contract.Mode;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.VisitorStatus;
import java.time.Instant;

/**
 * The visitor status (docs/ARCHITECTURE.md#the-status-body): nothing about other visitors, no internal ids but the
 * visitor's own receipt.
 */
public record StatusBody(
        String state,
        String phase,
        String mode,
        PositionBand position,
        WaitEstimate estimatedWaitSeconds,
        Offer offer,
        int pollAfterSeconds,
        String announcement,
        String receipt) {

    public record Offer(Instant expiresAt) {
    }

    public static StatusBody of(VisitorStatus s, boolean busy) {
        PositionBand position = s.state() == EntryState.WAITING && s.ahead() >= 0 ? PositionBand.around(s.ahead()) : null;
        WaitEstimate estimate = position != null && s.mode() == Mode.QUEUEING
                ? WaitEstimate.of(position, s.admissionRatePerSecond()) : null;
        Offer offer = s.state() == EntryState.OFFERED && s.offerExpiresAt() != null ? new Offer(s.offerExpiresAt()) : null;
        return new StatusBody(s.state().name(), s.phase().name(), s.mode().name(), position, estimate, offer,
                PollAdvice.pollAfterSeconds(s, busy), s.announcement(), s.entryId().value());
    }
}
