package dev.waitroom.gateway.status;

import java.time.Duration;
import java.time.Instant;

import dev.waitroom.gateway.events.EventMode;
import dev.waitroom.gateway.events.EventPhase;
import dev.waitroom.gateway.events.EventSnapshot;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.tokens.QueueTicket;

/**
 * Decides whether a status poll can be answered at the edge from the visitor's queue ticket and
 * the event snapshot (DESIGN §9), and computes the answer. Every doubt forwards to the
 * queue-service: the edge fails toward the truth, never toward a made-up position.
 */
final class EdgeStatusPolicy {

	/** Offers may have advanced this long beyond the snapshot's age before the edge stops answering. */
	private static final Duration OFFER_MARGIN = Duration.ofSeconds(3);

	private static final int MIN_POLL_SECONDS = 2;

	private static final int MAX_POLL_SECONDS = 30;

	private static final int PAUSED_POLL_SECONDS = 10;

	private final Duration snapshotMaxAge;

	private final Duration ticketLiveness;

	EdgeStatusPolicy(Duration snapshotMaxAge, Duration ticketLiveness) {
		this.snapshotMaxAge = snapshotMaxAge;
		this.ticketLiveness = ticketLiveness;
	}

	sealed interface Decision permits Answer, Forward {
	}

	record Answer(VisitorStatus status) implements Decision {
	}

	/** @param reason a bounded metric tag */
	record Forward(String reason) implements Decision {
	}

	Decision decide(String eventId, QueueTicket ticket, TimedSnapshot timed, Instant now) {
		if (ticket == null) {
			return new Forward("no-ticket");
		}
		if (!ticket.eventId().equals(eventId)) {
			return new Forward("other-event");
		}
		if (Duration.between(ticket.issuedAt(), now).compareTo(ticketLiveness) >= 0) {
			return new Forward("liveness");
		}
		if (timed == null) {
			return new Forward("no-snapshot");
		}
		Duration age = timed.ageAt(now);
		if (age.compareTo(snapshotMaxAge) >= 0) {
			return new Forward("stale-snapshot");
		}
		EventSnapshot snapshot = timed.snapshot();
		if (snapshot.phase() != EventPhase.OPEN) {
			return new Forward("not-open");
		}
		if (snapshot.mode() != EventMode.QUEUEING && snapshot.mode() != EventMode.PAUSED) {
			return new Forward("mode");
		}
		if (snapshot.drawCompletedAt() == null || !ticket.issuedAt().isAfter(snapshot.drawCompletedAt())) {
			return new Forward("before-draw");
		}
		if (snapshot.generatedAt() == null || snapshot.generatedAt().isBefore(ticket.issuedAt())) {
			return new Forward("snapshot-older-than-ticket");
		}
		long watermark = snapshot.offerWatermark() == null ? Long.MIN_VALUE : snapshot.offerWatermark();
		if (ticket.orderKey() <= watermark) {
			return new Forward("maybe-offered");
		}
		long fullyAhead = 0;
		EventSnapshot.WaitingBucket own = null;
		for (EventSnapshot.WaitingBucket bucket : snapshot.waitingBuckets()) {
			if (bucket.maxOrderKey() < ticket.orderKey()) {
				fullyAhead += bucket.count();
			}
			else {
				own = bucket;
				break;
			}
		}
		if (own == null || own.count() < 1) {
			return new Forward("not-waiting");
		}
		double rate = Math.max(0, snapshot.admissionRatePerSecond());
		// offers made since the snapshot was taken may already have removed people ahead
		long offeredSince = (long) Math.ceil(rate * seconds(age.plus(OFFER_MARGIN)));
		long aheadMax = fullyAhead + own.count() - 1;
		long aheadMin = Math.max(0, fullyAhead - offeredSince);
		if (aheadMin <= offeredSince) {
			return new Forward("near-offer");
		}
		boolean paused = snapshot.mode() == EventMode.PAUSED;
		VisitorStatus.EstimatedWait estimate = (paused || rate <= 0) ? null : estimate(aheadMin, aheadMax, rate);
		VisitorStatus status = new VisitorStatus("WAITING", snapshot.phase(), snapshot.mode(),
				new VisitorStatus.Position(aheadMin, aheadMax), estimate, null, pollAfter(paused, estimate),
				snapshot.announcement(), ticket.entryId());
		return new Answer(status);
	}

	/**
	 * From the band and the current admission rate; the upper end allows for the rate dropping by
	 * a third, since the controller cuts it when booking struggles.
	 */
	static VisitorStatus.EstimatedWait estimate(long aheadMin, long aheadMax, double rate) {
		long min = (long) Math.floor(aheadMin / rate);
		long max = (long) Math.ceil((aheadMax + 1) / rate * 1.5);
		return new VisitorStatus.EstimatedWait(min, Math.max(min, max));
	}

	/** Far from the front polls are rare; near it, frequent. */
	static int pollAfter(boolean paused, VisitorStatus.EstimatedWait estimate) {
		if (paused) {
			return PAUSED_POLL_SECONDS;
		}
		if (estimate == null) {
			return 5;
		}
		long suggested = estimate.min() / 20;
		return (int) Math.max(MIN_POLL_SECONDS, Math.min(MAX_POLL_SECONDS, suggested));
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

}
