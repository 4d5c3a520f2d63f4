package dev.waitroom.coordinator.queue.http;

import java.net.http.HttpClient;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueEventState;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueTransition;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.tokens.VisitorId;

import org.slf4j.MDC;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpClientErrorException;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestClientException;

/** {@link QueueDirectory} over HTTP with the internal credential and short timeouts. */
public final class RestClientQueueDirectory implements QueueDirectory {

	static final String INTERNAL_HEADER = "X-Waitroom-Internal";

	/** Answers that mean "no, and asking again will not change it"; other 4xx (auth, throttling) are retried. */
	private static final java.util.Set<Integer> REFUSALS = java.util.Set.of(400, 404, 409, 410, 422);

	private final RestClient http;

	private RestClientQueueDirectory(RestClient http) {
		this.http = http;
	}

	public static RestClientQueueDirectory of(RestClient.Builder builder, String baseUrl, String internalToken,
			Duration connectTimeout, Duration readTimeout) {
		HttpClient client = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
		JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(client);
		factory.setReadTimeout(readTimeout);
		RestClient http = builder.baseUrl(baseUrl)
			.requestFactory(factory)
			.defaultHeader(INTERNAL_HEADER, internalToken)
			.requestInterceptor((request, body, execution) -> {
				String requestId = MDC.get("requestId");
				if (requestId != null) {
					request.getHeaders().set("X-Request-Id", requestId);
				}
				return execution.execute(request, body);
			})
			.build();
		return new RestClientQueueDirectory(http);
	}

	@Override
	public void putEventState(String eventId, QueueEventState state) {
		call("put event state", () -> this.http.put()
			.uri("/internal/events/{e}", eventId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(state)
			.retrieve()
			.toBodilessEntity());
	}

	@Override
	public DrawResult draw(String eventId, String seedHex) {
		return call("draw", () -> this.http.post()
			.uri("/internal/events/{e}/draw", eventId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(Map.of("seed", seedHex))
			.retrieve()
			.body(DrawResult.class));
	}

	@Override
	public List<Candidate> candidates(String eventId, int limit) {
		CandidatesBody body = call("candidates", () -> this.http.get()
			.uri("/internal/events/{e}/candidates?limit={n}", eventId, limit)
			.retrieve()
			.body(CandidatesBody.class));
		if (body == null || body.entries() == null) {
			return List.of();
		}
		return body.entries().stream().map(RestClientQueueDirectory::candidate).toList();
	}

	/** The entry's visitor as a {@link VisitorId}; a malformed one is the queue misbehaving, not a refusal. */
	private static Candidate candidate(CandidateBody entry) {
		if (!VisitorId.isValid(entry.visitor())) {
			throw new QueueUnavailableException("The queue service answered the candidates call with a malformed visitor.",
					null);
		}
		return new Candidate(entry.entryId(), new VisitorId(entry.visitor()), entry.orderKey());
	}

	@Override
	public List<OfferResult> offer(String eventId, List<Offer> offers) {
		OffersResponse body = call("offers", () -> this.http.post()
			.uri("/internal/events/{e}/offers", eventId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new OffersRequest(offers.stream().map(OfferBody::of).toList()))
			.retrieve()
			.body(OffersResponse.class));
		return body == null || body.results() == null ? List.of() : body.results();
	}

	@Override
	public String transition(String eventId, String entryId, QueueTransition to, GrantId grantId) {
		TransitionResponse body = call("transition", () -> this.http.post()
			.uri("/internal/events/{e}/entries/{entryId}/transition", eventId, entryId)
			.contentType(MediaType.APPLICATION_JSON)
			.body(new TransitionRequest(to.name(), grantId.value()))
			.retrieve()
			.body(TransitionResponse.class));
		return body == null ? null : body.state();
	}

	@Override
	public QueueCounts counts(String eventId) {
		return call("counts",
				() -> this.http.get().uri("/internal/events/{e}/counts", eventId).retrieve().body(QueueCounts.class));
	}

	private static <T> T call(String what, java.util.function.Supplier<T> call) {
		try {
			return call.get();
		}
		catch (HttpClientErrorException ex) {
			if (!REFUSALS.contains(ex.getStatusCode().value())) {
				throw new QueueUnavailableException("The queue service did not take the " + what + " call.", ex);
			}
			throw new QueueRejectedException("The queue service refused the " + what + " call: " + ex.getStatusCode(),
					ex);
		}
		catch (RestClientException ex) {
			throw new QueueUnavailableException("The queue service did not answer the " + what + " call.", ex);
		}
	}

	record CandidatesBody(List<CandidateBody> entries) {
	}

	record CandidateBody(String entryId, String visitor, long orderKey) {
	}

	record OffersRequest(List<OfferBody> offers) {
	}

	record OfferBody(String entryId, UUID grantId, Instant expiresAt) {

		static OfferBody of(Offer offer) {
			return new OfferBody(offer.entryId(), offer.grantId().value(), offer.expiresAt());
		}

	}

	record OffersResponse(List<OfferResult> results) {
	}

	record TransitionRequest(String to, UUID grantId) {
	}

	record TransitionResponse(String entryId, String state) {
	}

}
