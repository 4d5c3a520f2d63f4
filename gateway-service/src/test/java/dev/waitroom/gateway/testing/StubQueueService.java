package dev.waitroom.gateway.testing;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queue-service as far as the gateway sees it (docs/CONTRACTS.md): join, status (the exact
 * truth, as a one-value band), leave, public status and the edge snapshot, over an in-memory
 * model per event. Issues real queue tickets with the shared ticket key.
 */
public final class StubQueueService extends StubHttpServer {

	static final int BUCKET_SIZE = 10;

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final QueueTicketCodec tickets;

	private final Map<String, QueueEvent> events = new ConcurrentHashMap<>();

	private volatile boolean unavailable;

	StubQueueService(String internalToken, QueueTicketCodec tickets) {
		super(internalToken);
		this.tickets = tickets;
	}

	/** The event's model, created open and queueing (draw an hour ago) on first use. */
	public QueueEvent event(String eventId) {
		return events.computeIfAbsent(eventId, QueueEvent::new);
	}

	/** While set, every request is answered 503, as an overloaded or restarting queue-service would. */
	public void unavailable(boolean unavailable) {
		this.unavailable = unavailable;
	}

	public String ticketFor(QueueTicket ticket) {
		return tickets.encode(ticket);
	}

	@Override
	protected Reply handle(Recorded request) {
		if (unavailable) {
			return Reply.json(503, Map.of("status", 503, "title", "Unavailable"));
		}
		String[] s = segments(request.path());
		if (s.length == 4 && s[0].equals("internal") && s[1].equals("events") && s[3].equals("snapshot")
				&& request.method().equals("GET")) {
			QueueEvent event = events.get(s[2]);
			return event == null ? Reply.json(404, Map.of("status", 404, "title", "No such event"))
					: Reply.json(200, event.snapshot());
		}
		if (s.length == 4 && s[0].equals("internal") && s[1].equals("events") && s[3].equals("liveness")
				&& request.method().equals("POST")) {
			return seen(event(s[2]), request.body());
		}
		if (s.length < 3 || !s[0].equals("events")) {
			return Reply.json(404, Map.of("status", 404, "title", "Not found"));
		}
		QueueEvent event = event(s[1]);
		String visitor = request.header(Headers.VISITOR).orElse(null);
		if (s.length == 3 && s[2].equals("status") && request.method().equals("GET")) {
			return Reply.json(200, event.publicStatus());
		}
		if (visitor == null) {
			return Reply.json(400, Map.of("status", 400, "title", "No visitor"));
		}
		if (s.length == 3 && s[2].equals("queue") && request.method().equals("POST")) {
			synchronized (event) {
				Entry existing = event.entries.get(visitor);
				Entry entry = existing != null ? existing : event.join(visitor);
				return withTicket(existing == null ? 201 : 200, event, entry);
			}
		}
		if (s.length == 4 && s[2].equals("queue") && s[3].equals("status") && request.method().equals("GET")) {
			synchronized (event) {
				Entry entry = event.entries.get(visitor);
				if (entry == null) {
					return Reply.json(404, Map.of("status", 404, "title", "Not in the queue"));
				}
				event.statusCalls++;
				return withTicket(200, event, entry);
			}
		}
		if (s.length == 3 && s[2].equals("queue") && request.method().equals("DELETE")) {
			synchronized (event) {
				Entry entry = event.entries.get(visitor);
				if (entry != null && entry.state.equals("WAITING")) {
					entry.state = "LEFT";
				}
				return new Reply(204, null, Map.of());
			}
		}
		return Reply.json(404, Map.of("status", 404, "title", "Not found"));
	}

	private Reply withTicket(int status, QueueEvent event, Entry entry) {
		if (!entry.state.equals("WAITING")) {
			return new Reply(status, event.status(entry), Map.of());
		}
		String ticket = tickets.encode(new QueueTicket(event.id, entry.entryId, entry.orderKey, Instant.now()));
		return new Reply(status, event.status(entry), Map.of(Headers.TICKET, ticket));
	}

	/** The liveness batch of the real queue-service: last-seen for waiting entries of the visitor named. */
	private Reply seen(QueueEvent event, String body) {
		JsonNode seen = JSON.readTree(body).get("seen");
		List<String> notWaiting = new ArrayList<>();
		synchronized (event) {
			event.livenessBatches++;
			for (JsonNode pair : seen) {
				String entryId = pair.get(0).asString();
				Entry entry = event.entries.values().stream().filter(e -> e.entryId.equals(entryId)).findFirst()
					.orElse(null);
				if (entry != null && entry.state.equals("WAITING") && entry.visitor.equals(pair.get(1).asString())) {
					entry.seen++;
				}
				else {
					notWaiting.add(entryId);
				}
			}
		}
		return Reply.json(200, Map.of("notWaiting", notWaiting));
	}

	/** One queue entry of the model. */
	public static final class Entry {

		final String visitor;

		final String entryId;

		final long orderKey;

		volatile String state = "WAITING";

		volatile Instant offerExpiresAt;

		volatile int seen;

		Entry(String visitor, String entryId, long orderKey) {
			this.visitor = visitor;
			this.entryId = entryId;
			this.orderKey = orderKey;
		}

		public String entryId() {
			return entryId;
		}

		public String state() {
			return state;
		}

		public long orderKey() {
			return orderKey;
		}

		/** How often a liveness batch recorded this entry. */
		public int seen() {
			return seen;
		}

		public void leave() {
			state = "LEFT";
		}

	}

	/** One event of the model; all methods lock the event. */
	public static final class QueueEvent {

		final String id;

		volatile String phase = "OPEN";

		volatile String mode = "QUEUEING";

		volatile String announcement;

		volatile long saleGeneration = 1;

		volatile double admissionRatePerSecond = 2.0;

		volatile Instant drawCompletedAt = Instant.now().minus(Duration.ofHours(1));

		volatile long offerWatermark;

		volatile int statusCalls;

		volatile int livenessBatches;

		volatile Instant opensAt;

		final LinkedHashMap<String, Entry> entries = new LinkedHashMap<>();

		private long nextKey = 1;

		QueueEvent(String id) {
			this.id = id;
		}

		public synchronized QueueEvent mode(String mode) {
			this.mode = mode;
			return this;
		}

		public synchronized QueueEvent phase(String phase) {
			this.phase = phase;
			return this;
		}

		public synchronized QueueEvent announcement(String text) {
			this.announcement = text;
			return this;
		}

		public synchronized QueueEvent saleGeneration(long generation) {
			this.saleGeneration = generation;
			return this;
		}

		public synchronized QueueEvent admissionRate(double perSecond) {
			this.admissionRatePerSecond = perSecond;
			return this;
		}

		public synchronized QueueEvent drawCompletedAt(Instant at) {
			this.drawCompletedAt = at;
			return this;
		}

		public synchronized QueueEvent opensAt(Instant at) {
			this.opensAt = at;
			return this;
		}

		public synchronized int statusCalls() {
			return statusCalls;
		}

		public synchronized int livenessBatches() {
			return livenessBatches;
		}

		/** Adds {@code count} anonymous waiting visitors at the back. */
		public synchronized QueueEvent addWaiting(int count) {
			for (int i = 0; i < count; i++) {
				join("bulk-" + UUID.randomUUID());
			}
			return this;
		}

		synchronized Entry join(String visitor) {
			Entry entry = new Entry(visitor, UUID.randomUUID().toString(), nextKey++);
			entries.put(visitor, entry);
			return entry;
		}

		public synchronized Entry entryOf(String visitor) {
			return entries.get(visitor);
		}

		/** Offers the next {@code count} waiting entries in order (the coordinator's tick). */
		public synchronized List<Entry> offerNext(int count) {
			List<Entry> offered = new ArrayList<>();
			for (Entry entry : entries.values()) {
				if (offered.size() == count) {
					break;
				}
				if (entry.state.equals("WAITING")) {
					entry.state = "OFFERED";
					entry.offerExpiresAt = Instant.now().plusSeconds(60);
					offerWatermark = Math.max(offerWatermark, entry.orderKey);
					offered.add(entry);
				}
			}
			return offered;
		}

		/** The exact number of WAITING entries ahead of this one. */
		public synchronized long exactlyAhead(Entry entry) {
			return entries.values()
				.stream()
				.filter(e -> e.state.equals("WAITING") && e.orderKey < entry.orderKey)
				.count();
		}

		synchronized Map<String, Object> status(Entry entry) {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("state", entry.state);
			body.put("phase", phase);
			body.put("mode", mode);
			if (entry.state.equals("WAITING") && phase.equals("OPEN")) {
				long ahead = exactlyAhead(entry);
				body.put("position", Map.of("aheadMin", ahead, "aheadMax", ahead));
				body.put("estimatedWaitSeconds", mode.equals("PAUSED") || admissionRatePerSecond <= 0 ? null
						: Map.of("min", (long) (ahead / admissionRatePerSecond),
								"max", (long) Math.ceil((ahead + 1) / admissionRatePerSecond * 1.5)));
			}
			else {
				body.put("position", null);
				body.put("estimatedWaitSeconds", null);
			}
			body.put("offer", entry.state.equals("OFFERED") ? Map.of("expiresAt", entry.offerExpiresAt.toString())
					: null);
			body.put("pollAfterSeconds", 2);
			body.put("announcement", announcement);
			body.put("receipt", entry.entryId);
			return body;
		}

		synchronized Map<String, Object> publicStatus() {
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("eventId", id);
			body.put("phase", phase);
			body.put("mode", mode);
			body.put("announcement", announcement);
			body.put("admissionRatePerSecond", admissionRatePerSecond);
			body.put("commitment", "3f1c0e8a9b7d6c5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c2d1e");
			body.put("seed", drawCompletedAt == null ? null : "5eed");
			body.put("drawCompletedAt", drawCompletedAt == null ? null : drawCompletedAt.toString());
			body.put("presaleCount", drawCompletedAt == null ? null : 0);
			body.put("opensAt", opensAt == null ? null : opensAt.toString());
			long waiting = entries.values().stream().filter(e -> e.state.equals("WAITING")).count();
			body.put("queueLength", Map.of("min", waiting, "max", waiting));
			return body;
		}

		synchronized Map<String, Object> snapshot() {
			List<Map<String, Object>> buckets = new ArrayList<>();
			long inBucket = 0;
			long maxKey = 0;
			for (Entry entry : entries.values()) {
				if (!entry.state.equals("WAITING")) {
					continue;
				}
				inBucket++;
				maxKey = entry.orderKey;
				if (inBucket == BUCKET_SIZE) {
					buckets.add(Map.of("maxOrderKey", maxKey, "count", inBucket));
					inBucket = 0;
				}
			}
			if (inBucket > 0) {
				buckets.add(Map.of("maxOrderKey", maxKey, "count", inBucket));
			}
			Map<String, Object> body = new LinkedHashMap<>();
			body.put("eventId", id);
			body.put("phase", phase);
			body.put("mode", mode);
			body.put("announcement", announcement);
			body.put("saleGeneration", saleGeneration);
			body.put("admissionRatePerSecond", admissionRatePerSecond);
			body.put("offerWatermark", offerWatermark);
			body.put("drawCompletedAt", drawCompletedAt == null ? null : drawCompletedAt.toString());
			body.put("drawComplete", !phase.equals("SCHEDULED"));
			body.put("presaleCount", 0);
			body.put("waiting", buckets.stream().mapToLong(b -> (long) b.get("count")).sum());
			body.put("waitingBuckets", buckets);
			body.put("generatedAt", Instant.now().toString());
			return body;
		}

	}

}
