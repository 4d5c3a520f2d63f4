package dev.waitroom.gateway.events;

import java.time.Instant;
import java.util.List;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;

/**
 * The queue-service's edge snapshot of one event ({@code GET /internal/events/{e}/snapshot},
 * docs/CONTRACTS.md). {@code waitingBuckets} cover the WAITING entries in order-key order.
 * {@code drawComplete} (the queue-service adds it) is true once the order is final: after the
 * pre-sale draw, or at opening when there was no pre-sale group ({@code drawCompletedAt} stays null).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record EventSnapshot(String eventId, EventPhase phase, OperatingMode mode, String announcement,
		long saleGeneration, double admissionRatePerSecond, Long offerWatermark, Instant drawCompletedAt,
		Boolean drawComplete, List<WaitingBucket> waitingBuckets, Instant generatedAt) {

	public EventSnapshot {
		waitingBuckets = waitingBuckets == null ? List.of() : List.copyOf(waitingBuckets);
	}

	/** Whether a ticket issued at {@code issuedAt} holds a final order key (issued after any draw). */
	public boolean orderFinalFor(Instant issuedAt) {
		if (drawCompletedAt != null) {
			return issuedAt.isAfter(drawCompletedAt);
		}
		return Boolean.TRUE.equals(drawComplete) && phase != EventPhase.SCHEDULED;
	}

	/** One slice of the waiting order: {@code count} WAITING entries with order keys up to {@code maxOrderKey}. */
	@JsonIgnoreProperties(ignoreUnknown = true)
	public record WaitingBucket(long maxOrderKey, long count) {
	}

}
