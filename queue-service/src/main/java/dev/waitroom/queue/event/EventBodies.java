package dev.waitroom.queue.event;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.queue.EventStateView;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.PublicEventStatus;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.queue.status.GateSilence;

/** The event's bodies on the wire (docs/reference/contracts.md), read into and written from the queue's own types. */
final class EventBodies {

    private EventBodies() {}

    /**
     * The most admissions a second any event is pushed with; the coordinator allows at most 100 000 (a larger number is
     * no pace but a mistake, and the edge multiplies it into wait estimates).
     */
    static final double MAX_ADMISSION_RATE = 1_000_000;

    /**
     * The pushed state, once its shape is sound; commitment and seed are kept in lower case, empty ones as none. The
     * announcement is shown on every waiting page: one line of plain text (contract {@link TextFields}).
     */
    static EventUpdateRequest update(EventUpdateRequest body) {
        EventUpdateRequest b = body.validated();
        TextFields.optional("announcement", b.announcement(), EventUpdateRequest.MAX_ANNOUNCEMENT);
        if (b.admissionRatePerSecondValue() > MAX_ADMISSION_RATE) {
            throw new MalformedValueException("admissionRatePerSecond is at most " + (long) MAX_ADMISSION_RATE);
        }
        return EventUpdateRequest.of(
                        b.phaseValue(),
                        b.modeValue(),
                        b.announcement(),
                        b.saleGenerationValue(),
                        lowerHexOrNull(b.commitment()),
                        lowerHexOrNull(b.seed()),
                        b.identityScopeValue(),
                        b.expiredOfferPolicyValue(),
                        b.presaleOrderingValue(),
                        b.admissionRatePerSecondValue(),
                        b.offerTtlSecondsValue(),
                        b.opensAt(),
                        b.joinGateValue(),
                        TextFields.optional("name", b.name(), EventUpdateRequest.MAX_NAME),
                        b.afterPurchaseValue(),
                        b.soldOutCategoriesValue().stream().distinct().toList(),
                        b.pace())
                .withModeStatement(
                        b.modeStatement() == null || b.modeStatement().isEmpty() ? null : b.modeStatement())
                .withAdmissionHold(b.admissionHold());
    }

    /** The stored state, answered to the coordinator's push. */
    static EventStateView stateView(EventState e) {
        EventUpdateRequest p = e.pushed();
        return new EventStateView(
                e.eventId().value(),
                p.phaseValue(),
                p.modeValue(),
                p.announcement(),
                p.saleGenerationValue(),
                p.commitment(),
                e.revealedSeed(),
                p.identityScopeValue(),
                p.expiredOfferPolicyValue(),
                p.presaleOrderingValue(),
                p.admissionRatePerSecondValue(),
                p.offerTtlSecondsValue(),
                p.opensAt(),
                e.presaleCount(),
                e.drawCompletedAt(),
                e.offerWatermark(),
                e.waiting(),
                p.joinGateValue(),
                p.name(),
                p.afterPurchaseValue(),
                p.soldOutCategoriesValue(),
                p.pace());
    }

    /**
     * The public event status: the queue's length as a band, never the exact count; the event's name and published
     * rules, the sale round and the sold-out seat categories as last pushed. Read from the event hash and the waiting
     * counter alone (event_read.lua): nothing about inventory or any visitor.
     */
    static PublicEventStatus publicStatus(EventState e, GateSilence silence) {
        EventUpdateRequest p = e.pushed();
        EventPhase phase = p.phaseValue();
        QueueStatus.Position band = QueueStatus.Position.around(e.waiting());
        return new PublicEventStatus(
                e.eventId().value(),
                phase,
                silence.presented(phase, p.modeValue(), e.pushedAt()),
                p.announcement(),
                p.admissionRatePerSecondValue(),
                new PublicEventStatus.QueueLength(band.aheadMin(), band.aheadMax()),
                p.commitment(),
                e.revealedSeed(),
                e.drawCompletedAt(),
                e.presaleCount(),
                p.opensAt(),
                p.name(),
                new PublicEventStatus.Policy(
                        p.presaleOrderingValue(),
                        p.expiredOfferPolicyValue(),
                        p.afterPurchaseValue(),
                        p.identityScopeValue()),
                // 0 is a push that named no generation (only tests do): the first round
                p.saleGenerationValue() > 0 ? p.saleGenerationValue() : null,
                p.soldOutCategoriesValue());
    }

    /** The gateway's edge snapshot (docs/design/architecture.md#the-edge-snapshot). */
    static QueueSnapshot snapshot(Snapshot s, GateSilence silence) {
        EventState e = s.event();
        EventUpdateRequest p = e.pushed();
        EventPhase phase = p.phaseValue();
        return new QueueSnapshot(
                e.eventId().value(),
                phase,
                silence.presented(phase, p.modeValue(), e.pushedAt()),
                p.announcement(),
                p.saleGenerationValue(),
                p.admissionRatePerSecondValue(),
                e.offerWatermark(),
                e.drawCompletedAt(),
                e.drawComplete(),
                e.presaleCount(),
                e.waiting(),
                s.waitingBuckets(),
                s.generatedAt(),
                p.joinGateValue(),
                p.soldOutCategoriesValue(),
                p.pace(),
                p.modeStatement(),
                p.admissionHold());
    }

    private static String lowerHexOrNull(String hex) {
        return hex == null || hex.isEmpty() ? null : hex.toLowerCase();
    }
}
