package dev.waitroom.gateway.status;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;

import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.events.EventId;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.TokenRejectedException;

/**
 * Answers {@code GET /events/{eventId}/queue/status} at the edge when the visitor's queue ticket
 * and a fresh event snapshot allow it (see {@link EdgeStatusPolicy}); forwards to the
 * queue-service otherwise. Counted as {@code waitroom.gateway.status.polls{answered,reason}}.
 */
@Component
public class EdgeStatusGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

	/** Says who answered a status poll: {@code edge} or {@code queue} (the load test counts it). */
	static final String SOURCE_HEADER = "X-Waitroom-Status-Source";

	private static final JsonMapper JSON = JsonMapper.builder().build();

	private final QueueTicketCodec tickets;

	private final EventSnapshots snapshots;

	private final EdgeStatusPolicy policy;

	private final Clock clock;

	private final MeterRegistry meters;

	private final Counter answeredAtEdge;

	private final Map<String, Counter> forwarded = new ConcurrentHashMap<>();

	EdgeStatusGatewayFilterFactory(SecretsProperties secrets, EventSnapshots snapshots, EdgeProperties edge,
			Clock clock, MeterRegistry meters) {
		super(Object.class);
		this.tickets = QueueTicketCodec.of(secrets.ticketHmacKey());
		this.snapshots = snapshots;
		this.policy = new EdgeStatusPolicy(edge.snapshotMaxAge(), edge.ticketLiveness());
		this.clock = clock;
		this.meters = meters;
		this.answeredAtEdge = counter("edge", "none");
	}

	@Override
	public GatewayFilter apply(Object config) {
		return (exchange, chain) -> {
			Optional<EventId> eventId = EventId
				.parse(ServerWebExchangeUtils.getUriTemplateVariables(exchange).get("eventId"));
			if (eventId.isEmpty()) {
				return forward(exchange, chain, "bad-event-id");
			}
			HttpCookie cookie = exchange.getRequest().getCookies().getFirst(QueueTicketCookieGlobalFilter.COOKIE);
			if (cookie == null || cookie.getValue().isBlank()) {
				return forward(exchange, chain, "no-ticket");
			}
			QueueTicket ticket;
			try {
				ticket = tickets.decode(cookie.getValue());
			}
			catch (TokenRejectedException ex) {
				return forward(exchange, chain, "bad-ticket");
			}
			return snapshots.current(eventId.get())
				.map(Optional::of)
				.defaultIfEmpty(Optional.empty())
				.flatMap(timed -> decide(exchange, chain, eventId.get(), ticket, timed.orElse(null)));
		};
	}

	private Mono<Void> decide(ServerWebExchange exchange, GatewayFilterChain chain, EventId eventId,
			QueueTicket ticket, TimedSnapshot timed) {
		EdgeStatusPolicy.Decision decision = policy.decide(eventId.value(), ticket, timed, clock.instant());
		if (decision instanceof EdgeStatusPolicy.Answer answer) {
			answeredAtEdge.increment();
			return write(exchange, answer.status());
		}
		return forward(exchange, chain, ((EdgeStatusPolicy.Forward) decision).reason());
	}

	private Mono<Void> forward(ServerWebExchange exchange, GatewayFilterChain chain, String reason) {
		forwarded.computeIfAbsent(reason, r -> counter("forwarded", r)).increment();
		ServerHttpResponse response = exchange.getResponse();
		response.beforeCommit(() -> {
			response.getHeaders().set(SOURCE_HEADER, "queue");
			return Mono.empty();
		});
		return chain.filter(exchange);
	}

	private static Mono<Void> write(ServerWebExchange exchange, VisitorStatus status) {
		byte[] body = JSON.writeValueAsBytes(status);
		ServerHttpResponse response = exchange.getResponse();
		response.setStatusCode(HttpStatus.OK);
		response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
		response.getHeaders().setContentLength(body.length);
		response.getHeaders().setCacheControl("no-store");
		response.getHeaders().set(SOURCE_HEADER, "edge");
		return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
	}

	private Counter counter(String answered, String reason) {
		return Counter.builder("waitroom.gateway.status.polls")
			.tag("answered", answered)
			.tag("reason", reason)
			.description("Visitor status polls, answered at the edge or forwarded to the queue-service (with why)")
			.register(meters);
	}

}
