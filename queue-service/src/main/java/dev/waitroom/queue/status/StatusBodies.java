package dev.waitroom.queue.status;

import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.QueueStatus.EstimatedWait;
import dev.waitroom.contract.queue.QueueStatus.Offer;
import dev.waitroom.contract.queue.QueueStatus.Position;
import dev.waitroom.queue.join.EntryState;
import dev.waitroom.queue.join.VisitorStatus;

/**
 * The visitor status body (docs/design/architecture.md#the-status-body), {@link QueueStatus}: nothing about other visitors,
 * no internal ids but the visitor's own receipt; position and estimate by the contract's one rule, which the edge
 * uses too.
 */
public final class StatusBodies {

    private StatusBodies() {}

    public static QueueStatus of(VisitorStatus s, boolean busy) {
        Position position = s.state() == EntryState.WAITING && s.ahead() >= 0 ? Position.around(s.ahead()) : null;
        // no progress is shown unless admissions run: paused, sold out (or bypassed) there is no estimate, and the
        // position is the place kept, which only people ahead leaving can move
        // a lane's pace is its share of the offers, which the queue does not know: a lane member's wait reads "not
        // known yet" rather than an estimate at the whole event's rate (docs/operating/lanes-and-access-codes.md)
        EstimatedWait estimate = position != null
                        && s.mode() == OperatingMode.QUEUEING
                        && (s.admissionHold() == null || !s.admissionHold().stopsOffers())
                        && s.lane().isGeneral()
                ? EstimatedWait.of(position, s.admissionRatePerSecond(), s.pace())
                : null;
        // sold out, an offer made before cannot be claimed: none is shown (paused, it is held and shown)
        Offer offer =
                s.state() == EntryState.OFFERED && s.offerExpiresAt() != null && s.mode() != OperatingMode.SOLD_OUT
                        ? new Offer(s.offerExpiresAt())
                        : null;
        return new QueueStatus(
                s.state().name(),
                s.phase(),
                s.mode(),
                position,
                estimate,
                offer,
                PollAdvice.pollAfterSeconds(s, busy),
                s.announcement(),
                s.entryId().value(),
                s.admissionHold(),
                s.lane().value());
    }
}
