package dev.waitroom.queue.event;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.JoinGate;
import dev.waitroom.contract.queue.Pace;
import java.time.Instant;
import java.util.List;

/**
 * The event state the coordinator pushes (PUT /internal/events/{e}), validated; as stored, the part of
 * {@link EventState} it pushed. The join gate is the event's join ceiling (enforced by join.lua) and its proof-of-work
 * difficulty (enforced by the gateway, which reads it from the snapshot). {@code name}, {@code afterPurchase} and
 * {@code soldOutCategories} are published on the waiting page (issue 17); join.lua reads {@code afterPurchase} to
 * decide whether a completed entry may join again (docs/sale-rules/rejoin-and-published-policy.md). {@code pace} is
 * the offer pace the coordinator measured (docs/estimates.md), null when none was pushed. {@code modeStatement} is the
 * coordinator's signature of the mode, kept opaque for the gateway (docs/security/signed-mode.md): this
 * service neither checks nor needs it; null when none was pushed. {@code admissionHold} is why offers are held back
 * (null: they are not), kept for the visitor status and the snapshot.
 */
public record EventUpdate(
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
        JoinGate joinGate,
        String name,
        AfterPurchase afterPurchase,
        List<String> soldOutCategories,
        Pace pace,
        String modeStatement,
        AdmissionHold admissionHold) {

    public EventUpdate {
        afterPurchase = afterPurchase == null ? AfterPurchase.DEFAULT : afterPurchase;
        soldOutCategories = soldOutCategories == null ? List.of() : List.copyOf(soldOutCategories);
    }
}
