package dev.waitroom.gateway.events;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * The queue-service's edge snapshot of one event ({@code GET /internal/events/{e}/snapshot},
 * docs/CONTRACTS.md). {@code waitingBuckets} cover the WAITING entries in order-key order.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EventSnapshot(String eventId, EventPhase phase, EventMode mode, String announcement,
		long saleGeneration, double admissionRatePerSecond, Long offerWatermark, Instant drawCompletedAt,
		List<WaitingBucket> waitingBuckets, Instant generatedAt) {

	public EventSnapshot {
		waitingBuckets = waitingBuckets == null ? List.of() : List.copyOf(waitingBuckets);
	}

	/** One slice of the waiting order: {@code count} WAITING entries with order keys up to {@code maxOrderKey}. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record WaitingBucket(long maxOrderKey, long count) {
	}

}
