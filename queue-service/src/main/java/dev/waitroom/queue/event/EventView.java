package dev.waitroom.queue.event;

import java.time.Instant;

/** The stored event state, answered to the coordinator's push. */
record EventView(String eventId, String phase, String mode, String announcement, long saleGeneration, String commitment,
        String seed, String identityScope, String expiredOfferPolicy, String presaleOrdering, double admissionRatePerSecond,
        long offerTtlSeconds, Instant opensAt, Long presaleCount, Instant drawCompletedAt, long offerWatermark,
        long waiting) {

    static EventView of(EventState e) {
        return new EventView(e.eventId().value(), e.phase().name(), e.mode().name(), e.announcement(), e.saleGeneration(),
                e.commitment(), e.revealedSeed(), e.identityScope().name(), e.expiredOfferPolicy().name(),
                e.presaleOrdering().name(), e.admissionRatePerSecond(), e.offerTtlSeconds(), e.opensAt(), e.presaleCount(),
                e.drawCompletedAt(), e.offerWatermark(), e.waiting());
    }
}
