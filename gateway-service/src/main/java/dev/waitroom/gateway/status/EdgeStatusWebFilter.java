package dev.waitroom.gateway.status;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.buckets.LocalTokenBuckets;
import dev.waitroom.gateway.client.ClientLimits;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.gateway.identity.EdgeCookies;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.tokens.QueueTicket;
import dev.waitroom.tokens.QueueTicketCodec;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Answers {@code GET /events/{eventId}/queue/status} ahead of the gateway's route lookup, from the
 * visitor's signed cookie, the queue ticket and a fresh event snapshot ({@link EdgeStatusPolicy}),
 * and records the visitor's liveness in the next batch ({@link LivenessBatches}). It is the first
 * filter, so an answered poll costs two HMAC checks, a token bucket and a small JSON body: no route
 * lookup, no access-log line, no upstream call.
 *
 * <p>Everything it cannot answer goes down the ordinary chain unchanged (with the reason counted):
 * a missing or forged visitor cookie (the identity filter issues one), a path or request it does not
 * recognise exactly (the path-safety filter answers the problem), a missing, invalid or outdated
 * ticket, an entry the queue-service said has moved on, a stale snapshot, or a visitor near an offer.
 * The per-visitor limit on status polls is applied here to every poll with a valid visitor cookie,
 * answered or forwarded; polls without one carry a new identity each time, so no per-visitor limit
 * could hold them: polls without a valid ticket are limited per client address instead ({@link ClientLimits}).
 */
@Component
class EdgeStatusWebFilter implements WebFilter, Ordered {

    private static final String PREFIX = "/events/";

    private static final String SUFFIX = "/queue/status";

    private final VisitorCookieCodec visitors;

    private final QueueTicketCodec tickets;

    private final EventSnapshots snapshots;

    private final LivenessBatches liveness;

    private final EdgeStatusPolicy policy;

    private final LocalTokenBuckets buckets;

    private final double pollCost;

    private final String retryAfter;

    private final Clock clock;

    private final ClientLimits clientLimits;

    private final MeterRegistry meters;

    private final Counter answeredAtEdge;

    private final Counter rateLimited;

    private final Map<String, Counter> forwarded = new ConcurrentHashMap<>();

    /** The cookie names on the wire: {@code __Host-}/{@code __Secure-} prefixed when served over HTTPS. */
    private final String visitorCookieName;

    private final String ticketCookieName;

    EdgeStatusWebFilter(
            SecretsProperties secrets,
            EventSnapshots snapshots,
            LivenessBatches liveness,
            EdgeProperties edge,
            EdgeCookies cookies,
            Clock clock,
            ClientLimits clientLimits,
            MeterRegistry meters) {
        this.clientLimits = clientLimits;
        this.visitorCookieName = cookies.visitorName();
        this.ticketCookieName = cookies.ticketName();
        this.visitors = secrets.visitorCookieCodec();
        this.tickets = secrets.queueTicketCodec();
        this.snapshots = snapshots;
        this.liveness = liveness;
        this.policy = new EdgeStatusPolicy(edge.snapshotMaxAge(), edge.ticketMaxAge());
        EdgeProperties.Limit limit = edge.rateLimits().status();
        if (limit.burstCapacity() < limit.replenishRate() || limit.requestedTokens() > limit.burstCapacity()) {
            throw new IllegalArgumentException(
                    "the status rate limit needs replenishRate <= burstCapacity and requestedTokens <= burstCapacity");
        }
        this.buckets = new LocalTokenBuckets(
                limit.replenishRate(), limit.burstCapacity(), limit.maxVisitors(), System::nanoTime);
        this.pollCost = limit.requestedTokens();
        this.retryAfter = Long.toString(buckets.secondsUntil(pollCost));
        this.clock = clock;
        this.meters = meters;
        this.answeredAtEdge = polls("edge", "none");
        this.rateLimited = Counter.builder("waitroom.gateway.rate.limited")
                .tag("route", "queue-status")
                .description("Requests refused by a per-visitor rate limit")
                .register(meters);
    }

    @Override
    public int getOrder() {
        return FilterOrder.EDGE_STATUS;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        if (!HttpMethod.GET.equals(request.getMethod())) {
            return chain.filter(exchange);
        }
        EventId eventId = statusPathEvent(request.getURI().getRawPath());
        if (eventId == null) {
            return chain.filter(exchange);
        }
        if (request.getURI().getRawQuery() != null || hasBody(request.getHeaders())) {
            return forward(exchange, chain, "unusual-request");
        }
        List<String> cookies = request.getHeaders().get(HttpHeaders.COOKIE);
        VisitorId visitor = verifiedVisitor(cookieValue(cookies, visitorCookieName));
        if (visitor == null) {
            return forwardUnticketed(exchange, chain, "no-visitor");
        }
        if (!buckets.tryTake(visitor.value(), pollCost)) {
            return refuse(exchange);
        }
        String ticketCookie = cookieValue(cookies, ticketCookieName);
        if (ticketCookie == null || ticketCookie.isEmpty()) {
            return forwardUnticketed(exchange, chain, "no-ticket");
        }
        QueueTicket ticket;
        try {
            ticket = tickets.decode(ticketCookie);
        } catch (TokenRejectedException ex) {
            return forwardUnticketed(exchange, chain, "bad-ticket");
        }
        Instant changedAt = liveness.changedAt(eventId, ticket.entryId());
        if (changedAt != null && !ticket.issuedAt().isAfter(changedAt)) {
            return forward(exchange, chain, "entry-changed");
        }
        return snapshots
                .currentFor(eventId, ticket.issuedAt())
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(timed -> decide(exchange, chain, eventId, visitor, ticket, timed.orElse(null)));
    }

    private Mono<Void> decide(
            ServerWebExchange exchange,
            WebFilterChain chain,
            EventId eventId,
            VisitorId visitor,
            QueueTicket ticket,
            TimedSnapshot timed) {
        EdgeStatusPolicy.Decision decision = policy.decide(eventId.value(), ticket, timed, clock.instant());
        if (decision instanceof EdgeStatusPolicy.Answer answer) {
            answeredAtEdge.increment();
            liveness.seen(eventId, ticket.entryId(), visitor);
            return write(exchange, answer.status());
        }
        return forward(exchange, chain, ((EdgeStatusPolicy.Forward) decision).reason());
    }

    /**
     * A poll without a valid queue ticket reaches the queue-service: it costs a token of the client address's bucket
     * (docs/design/abuse/client-limits.md), since a client that drops its cookies is a new visitor on every poll.
     */
    private Mono<Void> forwardUnticketed(ServerWebExchange exchange, WebFilterChain chain, String reason) {
        if (!clientLimits.tryTake(ClientLimits.Local.UNTICKETED_POLLS, exchange)) {
            return clientLimits.refuse(exchange, ClientLimits.Local.UNTICKETED_POLLS);
        }
        return forward(exchange, chain, reason);
    }

    private Mono<Void> forward(ServerWebExchange exchange, WebFilterChain chain, String reason) {
        forwarded.computeIfAbsent(reason, r -> polls("forwarded", r)).increment();
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            response.getHeaders().set(Headers.STATUS_SOURCE, "queue");
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    private Mono<Void> refuse(ServerWebExchange exchange) {
        rateLimited.increment();
        HttpHeaders headers = exchange.getResponse().getHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, retryAfter);
        headers.set(Headers.REQUEST_ID, RequestIdWebFilter.requestIdOf(exchange.getRequest()));
        return ProblemResponses.write(
                exchange,
                ProblemType.RATE_LIMITED,
                "Too many requests from this browser. Your place is kept; wait " + retryAfter
                        + " s before trying again.",
                Map.of("retryAfterSeconds", Long.parseLong(retryAfter)));
    }

    private static Mono<Void> write(ServerWebExchange exchange, QueueStatus status) {
        byte[] body = EdgeStatusJson.write(status);
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.OK);
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(MediaType.APPLICATION_JSON);
        headers.setContentLength(body.length);
        headers.setCacheControl("no-store");
        headers.set(Headers.STATUS_SOURCE, "edge");
        headers.set(Headers.REQUEST_ID, RequestIdWebFilter.requestIdOf(exchange.getRequest()));
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

    private VisitorId verifiedVisitor(String cookie) {
        if (cookie == null) {
            return null;
        }
        try {
            return visitors.decode(cookie);
        } catch (TokenRejectedException ex) {
            return null;
        }
    }

    /**
     * The first value of the named cookie in the request's {@code Cookie} headers, or null. Reads
     * only the two cookies the edge needs instead of decoding every cookie; a value this does not
     * parse the way the browser meant (quoted, odd spacing) fails its HMAC check and goes down the
     * ordinary chain, which decodes cookies fully.
     */
    static String cookieValue(List<String> headers, String name) {
        if (headers == null) {
            return null;
        }
        for (String header : headers) {
            int at = 0;
            int length = header.length();
            while (at < length) {
                while (at < length && (header.charAt(at) == ' ' || header.charAt(at) == '\t')) {
                    at++;
                }
                int end = header.indexOf(';', at);
                if (end < 0) {
                    end = length;
                }
                if (header.startsWith(name, at)
                        && at + name.length() < length
                        && header.charAt(at + name.length()) == '=') {
                    return header.substring(at + name.length() + 1, end).trim();
                }
                at = end + 1;
            }
        }
        return null;
    }

    /** The event of exactly {@code /events/{eventId}/queue/status} with a well-formed id, else null. */
    static EventId statusPathEvent(String rawPath) {
        if (rawPath == null
                || !rawPath.startsWith(PREFIX)
                || !rawPath.endsWith(SUFFIX)
                || rawPath.length() <= PREFIX.length() + SUFFIX.length()) {
            return null;
        }
        // every status poll passes here: no Optional
        String id = rawPath.substring(PREFIX.length(), rawPath.length() - SUFFIX.length());
        return EventId.isValid(id) ? new EventId(id) : null;
    }

    private static boolean hasBody(HttpHeaders headers) {
        return headers.getContentLength() > 0 || headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
    }

    private Counter polls(String answered, String reason) {
        return Counter.builder("waitroom.gateway.status.polls")
                .tag("answered", answered)
                .tag("reason", reason)
                .description("Visitor status polls, answered at the edge or forwarded to the queue-service (with why)")
                .register(meters);
    }
}
