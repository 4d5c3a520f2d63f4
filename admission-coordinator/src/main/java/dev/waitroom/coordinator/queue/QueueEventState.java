package dev.waitroom.coordinator.queue;

import java.time.Instant;

/**
 * Body of PUT /internal/events/{e}. {@code presaleOrdering} is an addition to the contract (the queue needs it to
 * know whether the draw randomises); unknown fields are ignored by Jackson defaults.
 */
public record QueueEventState(String phase, String mode, String announcement, long saleGeneration, String commitment,
		String seed, String identityScope, String expiredOfferPolicy, double admissionRatePerSecond,
		long offerTtlSeconds, Instant opensAt, String presaleOrdering) {
}
