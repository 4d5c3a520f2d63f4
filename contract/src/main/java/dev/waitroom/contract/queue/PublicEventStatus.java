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
 * The public event status, {@code GET /events/{eventId}/status}: the same for every visitor, cacheable for a second;
 * the waiting page reads it and the tests' fake queue-service (test-support's {@code FakeQueueService}) imitates it.
 * {@code commitment} is the SHA-256 of the draw seed, published before opening; {@code seed} appears once revealed, so
 * anyone can check the draw. {@code queueLength} is the band of {@link QueueStatus.Position#around} over the WAITING entries. {@code name},
 * {@code policy}, {@code saleGeneration} (the sale round, 1 for the first) and {@code soldOutCategories} are what the
 * page publishes (issue 17).
 */
public record PublicEventStatus(
        String eventId,
        EventPhase phase,
        OperatingMode mode,
        String announcement,
        double admissionRatePerSecond,
        QueueLength queueLength,
        String commitment,
        String seed,
        Instant drawCompletedAt,
        Long presaleCount,
        Instant opensAt,
        String name,
        Policy policy,
        Long saleGeneration,
        List<String> soldOutCategories) {

    public PublicEventStatus {
        soldOutCategories = soldOutCategories == null ? List.of() : List.copyOf(soldOutCategories);
        saleGeneration = saleGeneration == null ? 1L : saleGeneration;
    }

    /** How many entries wait: a band, never an exact count. */
    public record QueueLength(long min, long max) {}

    /**
     * The event's published rules, from which the page writes its "how the queue is ordered" text (issue 17): never fixed
     * text. Frozen once the draw's commitment is published or the sale opened.
     */
    public record Policy(
            PresaleOrdering presaleOrdering,
            ExpiredOfferPolicy expiredOfferPolicy,
            AfterPurchase afterPurchase,
            IdentityScope identityScope) {}
}
