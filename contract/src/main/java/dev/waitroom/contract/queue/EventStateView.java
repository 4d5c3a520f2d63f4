package dev.waitroom.contract.queue;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.IdentityScope;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.PresaleOrdering;
import java.time.Instant;
import java.util.List;

/**
 * The answer to {@code PUT /internal/events/{eventId}} ({@link QueuePaths#EVENT}): the event state the queue-service
 * stored. {@code seed} is the revealed seed (null until revealed); {@code presaleCount} and {@code drawCompletedAt}
 * are null until the draw; {@code offerWatermark} is the highest order key ever offered; {@code pace} the measured
 * offer pace last pushed (null when none was).
 */
public record EventStateView(
        String eventId,
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
        long offerWatermark,
        long waiting,
        JoinGate joinGate,
        String name,
        AfterPurchase afterPurchase,
        List<String> soldOutCategories,
        Pace pace) {

    public EventStateView {
        joinGate = joinGate == null ? JoinGate.OPEN : joinGate;
        afterPurchase = afterPurchase == null ? AfterPurchase.DEFAULT : afterPurchase;
        soldOutCategories = soldOutCategories == null ? List.of() : List.copyOf(soldOutCategories);
    }
}
