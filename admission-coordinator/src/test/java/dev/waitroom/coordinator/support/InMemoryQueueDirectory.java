package dev.waitroom.coordinator.support;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.locks.LockSupport;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.tokens.VisitorId;

/**
 * The queue service's internal API in memory, following CONTRACTS: server-assigned order, pre-sale group ordered by
 * HMAC-SHA256(seed, entryId) at the draw (idempotent), candidates in order and not removed, idempotent offers and
 * transitions, the expired-offer policy (REQUEUE_ONCE: back of the queue once, then EXPIRED; DROP: EXPIRED). It can
 * be made unavailable, and can stall candidate calls (a slow queue makes a leader stale mid-tick).
 */
public final class InMemoryQueueDirectory implements QueueDirectory {

	public enum State {
		WAITING, OFFERED, ACTIVE, COMPLETED, EXPIRED, LEFT
	}

	public static final class Entry {

		final String entryId;

		final String visitor;

		long orderKey;

		boolean presale;

		State state = State.WAITING;

		String grantId;

		int requeues;

		final List<String> endedGrants = new ArrayList<>();

		Entry(String entryId, String visitor) {
			this.entryId = entryId;
			this.visitor = visitor;
		}

		public State state() {
			return this.state;
		}

		public int requeues() {
			return this.requeues;
		}

		public String entryId() {
			return this.entryId;
		}

		public String visitor() {
			return this.visitor;
		}

		public long orderKey() {
			return this.orderKey;
		}

	}

	private static final class EventQueue {

		final Map<String, Entry> byEntry = new LinkedHashMap<>();

		final Map<String, Entry> byVisitor = new HashMap<>();

		EventUpdateRequest state;

		boolean drawn;

		long sequence;

		long offerCalls;

	}

	private final Map<String, EventQueue> events = new HashMap<>();

	private volatile boolean unavailable;

	private volatile boolean failOffers;

	private volatile double stallProbability;

	private volatile long stallNanos;

	public void unavailable(boolean down) {
		this.unavailable = down;
	}

	/** Offer calls fail (a crash or outage between the Postgres commit and telling the queue). */
	public void failOffers(boolean fail) {
		this.failOffers = fail;
	}

	/** With this probability a candidates call parks for {@code nanos} (a slow network, a GC pause). */
	public void stallCandidates(double probability, long nanos) {
		this.stallProbability = probability;
		this.stallNanos = nanos;
	}

	/** A visitor joins (idempotent per visitor); returns the entry id. */
	public synchronized String join(String eventId, String visitor) {
		EventQueue q = queue(eventId);
		Entry existing = q.byVisitor.get(visitor);
		if (existing != null) {
			return existing.entryId;
		}
		Entry entry = new Entry(UUID.randomUUID().toString(), visitor);
		// The pre-sale group closes when the queue hears the event is OPEN; later joins are FIFO behind it.
		entry.presale = q.state == null || "SCHEDULED".equals(q.state.phase());
		entry.orderKey = ++q.sequence + (entry.presale ? 0 : 1_000_000_000L);
		q.byEntry.put(entry.entryId, entry);
		q.byVisitor.put(visitor, entry);
		return entry.entryId;
	}

	/** The visitor leaves the queue (WAITING -> LEFT). */
	public synchronized void leave(String eventId, String visitor) {
		Entry e = queue(eventId).byVisitor.get(visitor);
		if (e != null && e.state == State.WAITING) {
			e.state = State.LEFT;
		}
	}

	public synchronized Entry entry(String eventId, String visitor) {
		return queue(eventId).byVisitor.get(visitor);
	}

	/** WAITING entries never offered before (requeued ones go to the back on purpose). */
	public synchronized List<Entry> waitingFirstTime(String eventId) {
		return queue(eventId).byEntry.values()
			.stream()
			.filter(e -> e.state == State.WAITING && e.requeues == 0)
			.toList();
	}

	public synchronized EventUpdateRequest lastState(String eventId) {
		return queue(eventId).state;
	}

	public synchronized boolean drawn(String eventId) {
		return queue(eventId).drawn;
	}

	@Override
	public synchronized void putEventState(String eventId, EventUpdateRequest state) {
		check();
		EventQueue q = queue(eventId);
		// Like the real queue: a phase never goes back (a stale push is refused with 409).
		java.util.List<String> phases = java.util.List.of("SCHEDULED", "OPEN", "ENDED");
		if (q.state != null && phases.indexOf(state.phase()) < phases.indexOf(q.state.phase())) {
			throw new QueueRejectedException("phase-regression: " + q.state.phase() + " -> " + state.phase(), null);
		}
		q.state = state;
	}

	@Override
	public synchronized DrawResult draw(String eventId, String seedHex) {
		check();
		EventQueue q = queue(eventId);
		if (q.state == null || "SCHEDULED".equals(q.state.phase())) {
			throw new QueueRejectedException("draw-not-allowed: the event is still SCHEDULED", null);
		}
		List<Entry> group = q.byEntry.values().stream().filter(e -> e.presale).toList();
		if (!q.drawn) {
			byte[] seed = HexFormat.of().parseHex(seedHex);
			List<Entry> ordered = new ArrayList<>(group);
			ordered.sort(Comparator.comparing(e -> HexFormat.of().formatHex(hmac(seed, e.entryId))));
			for (int i = 0; i < ordered.size(); i++) {
				ordered.get(i).orderKey = i + 1;
			}
			q.drawn = true;
		}
		return new DrawResult(group.size(), true);
	}

	@Override
	public List<Candidate> candidates(String eventId, int limit) {
		check();
		if (this.stallProbability > 0 && ThreadLocalRandom.current().nextDouble() < this.stallProbability) {
			LockSupport.parkNanos(this.stallNanos);
		}
		synchronized (this) {
			EventQueue q = queue(eventId);
			if (!q.drawn) {
				return List.of();
			}
			return q.byEntry.values()
				.stream()
				.filter(e -> e.state == State.WAITING)
				.sorted(Comparator.comparingLong(e -> e.orderKey))
				.limit(limit)
				.map(e -> new Candidate(e.entryId, new VisitorId(e.visitor), e.orderKey))
				.toList();
		}
	}

	@Override
	public synchronized List<OfferResult> offer(String eventId, List<Offer> offers) {
		check();
		if (this.failOffers) {
			throw new QueueUnavailableException("offer call lost (test)", null);
		}
		EventQueue q = queue(eventId);
		if (!q.drawn) {
			throw new QueueRejectedException("not-drawn", null);
		}
		q.offerCalls++;
		List<OfferResult> results = new ArrayList<>();
		for (Offer offer : offers) {
			Entry e = q.byEntry.get(offer.entryId());
			if (e == null) {
				// the queue answers an unknown entry without a state
				results.add(new OfferResult(offer.entryId(), null, false));
				continue;
			}
			if (e.state == State.WAITING && !e.endedGrants.contains(offer.grantId().toString())) {
				e.state = State.OFFERED;
				e.grantId = offer.grantId().toString();
			}
			results.add(new OfferResult(e.entryId, e.state.name(), offer.grantId().toString().equals(e.grantId)));
		}
		return results;
	}

	@Override
	public synchronized String transition(String eventId, String entryId, TransitionTarget to, GrantId grantId) {
		check();
		EventQueue q = queue(eventId);
		Entry e = q.byEntry.get(entryId);
		if (e == null) {
			throw new QueueRejectedException("unknown entry", null);
		}
		String grant = grantId.toString();
		if (e.endedGrants.contains(grant)) {
			return e.state.name(); // a repeat of a transition already applied
		}
		if (!grant.equals(e.grantId)) {
			throw new QueueRejectedException("entry does not hold this grant", null);
		}
		switch (to) {
			case ACTIVE -> {
				if (e.state == State.OFFERED) {
					e.state = State.ACTIVE;
				}
				else if (e.state != State.ACTIVE) {
					throw new QueueRejectedException("not offered", null);
				}
			}
			case COMPLETED -> {
				require(e, State.ACTIVE, State.COMPLETED);
				e.state = State.COMPLETED;
			}
			case EXPIRED -> {
				require(e, State.OFFERED, State.ACTIVE, State.EXPIRED);
				e.state = State.EXPIRED;
			}
			case OFFER_EXPIRED -> {
				require(e, State.OFFERED);
				String policy = q.state == null ? "REQUEUE_ONCE" : q.state.expiredOfferPolicy();
				e.endedGrants.add(grant);
				e.grantId = null;
				if ("REQUEUE_ONCE".equals(policy) && e.requeues == 0) {
					e.requeues++;
					e.state = State.WAITING;
					e.orderKey = ++q.sequence + 2_000_000_000L;
				}
				else {
					e.state = State.EXPIRED;
				}
			}
		}
		return e.state.name();
	}

	@Override
	public synchronized QueueCounts counts(String eventId) {
		check();
		EventQueue q = queue(eventId);
		Map<State, Long> n = new HashMap<>();
		for (Entry e : q.byEntry.values()) {
			n.merge(e.state, 1L, Long::sum);
		}
		return new QueueCounts(n.getOrDefault(State.WAITING, 0L), n.getOrDefault(State.OFFERED, 0L),
				n.getOrDefault(State.ACTIVE, 0L), n.getOrDefault(State.COMPLETED, 0L), n.getOrDefault(State.LEFT, 0L),
				n.getOrDefault(State.EXPIRED, 0L), q.byEntry.size(), 0L, 0L, null, null);
	}

	private static void require(Entry e, State... allowed) {
		for (State s : allowed) {
			if (e.state == s) {
				return;
			}
		}
		throw new QueueRejectedException("entry is " + e.state, null);
	}

	private void check() {
		if (this.unavailable) {
			throw new QueueUnavailableException("queue down (test)", null);
		}
	}

	private EventQueue queue(String eventId) {
		return this.events.computeIfAbsent(eventId, k -> new EventQueue());
	}

	private static byte[] hmac(byte[] key, String data) {
		try {
			Mac mac = Mac.getInstance("HmacSHA256");
			mac.init(new SecretKeySpec(key, "HmacSHA256"));
			return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException | InvalidKeyException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
