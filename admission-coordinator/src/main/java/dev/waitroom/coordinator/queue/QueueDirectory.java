package dev.waitroom.coordinator.queue;

import java.time.Instant;
import java.util.List;

import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.tokens.VisitorId;

/**
 * The queue-service as the coordinator sees it (docs/CONTRACTS.md, "queue-service internal API"). Every
 * call is idempotent. Implementations throw {@link QueueUnavailableException} when the queue cannot answer.
 */
public interface QueueDirectory {

	/** PUT /internal/events/{e}. */
	void putEventState(String eventId, QueueEventState state);

	/** POST /internal/events/{e}/draw: orders the pre-sale group; repeating it is a no-op. */
	DrawResult draw(String eventId, String seedHex);

	/** GET /internal/events/{e}/candidates?limit=N: the next WAITING entries in policy order, not removed. */
	List<Candidate> candidates(String eventId, int limit);

	/** POST /internal/events/{e}/offers: WAITING -> OFFERED; an entry already OFFERED with that grant is unchanged. */
	List<OfferResult> offer(String eventId, List<Offer> offers);

	/** POST /internal/events/{e}/entries/{entryId}/transition; returns the entry's state afterwards. */
	String transition(String eventId, String entryId, QueueTransition to, GrantId grantId);

	/** GET /internal/events/{e}/counts. */
	QueueCounts counts(String eventId);

	record Candidate(String entryId, VisitorId visitor, long orderKey) {
	}

	record Offer(String entryId, GrantId grantId, Instant expiresAt) {
	}

	record OfferResult(String entryId, String state) {
	}

	record DrawResult(long presaleCount, boolean completed) {
	}

	record QueueCounts(long waiting, long offered, long active, long completed, long left, long expired, long joins,
			Long oldestWaitSeconds, long abandoned) {
	}

}
