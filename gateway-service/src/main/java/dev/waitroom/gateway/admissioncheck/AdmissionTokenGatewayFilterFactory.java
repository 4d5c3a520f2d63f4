package dev.waitroom.gateway.admissioncheck;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.QueueSnapshot;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import dev.waitroom.gateway.routes.WaitingRoomRedirects;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionHeader;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorId;
import dev.waitroom.tokens.http.HttpJwksSource;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Admission on a protected route ({@code /events/{eventId}/shop/**} and every event's protected paths, whose event the
 * route table names: docs/integration/gateway-in-front.md; docs/design/architecture.md#admission-path): the token comes from
 * the event's admission cookie (presented as {@code wr_at}) or, only when there is none, {@code Authorization: Bearer}
 * (API clients, load tests); its signature, event, sale generation (from the event snapshot) and expiry are verified
 * (once per token, then cached), the visitor binding is compared with the verified visitor cookie, and the session must
 * still be in the live-session registry. With {@link Config#isAllowExpired()} (order status) a token that expired
 * within the grace period is accepted without the liveness check: it can read an order, never shop (the origin is told
 * {@code order-status}; an unexpired token of a live session is told {@code shopping}, so a later session of the same
 * visitor may read the order). In BYPASS mode (from a snapshot at most 10 s old, carrying the coordinator's valid signed
 * statement of it: {@link #signedBypass}) requests pass without a token, counted and logged; a BYPASS without one is
 * treated as QUEUEING. A refused browser navigation is sent to the event's waiting page with its path as the return target
 * ({@link WaitingRoomRedirects}); any other refusal carries a {@code Link} to it.
 *
 * <p>A request that passes leaves what was checked ({@link CheckedRequest}, for exactly its method and raw path) in
 * {@link #CHECKED_ATTRIBUTE}; {@link AdmissionHeaderGlobalFilter} signs it as the {@code Waitroom-Admission} header,
 * the one thing the origin is told (docs/integration/admission-header.md). The shop's own {@code Authorization} and
 * cookies are the shop's: a token read from the cookie leaves {@code Authorization} untouched (a shop's own bearer
 * token beside the admission cookie passes through), and a Bearer admission token, Waitroom's and not the shop's, is
 * removed before forwarding.
 */
@Component
public class AdmissionTokenGatewayFilterFactory
        extends AbstractGatewayFilterFactory<AdmissionTokenGatewayFilterFactory.Config> {

    static final String COOKIE = "wr_at";

    /** What was checked for a request that passed (a {@link CheckedRequest}), read by the admission-header filter. */
    static final String CHECKED_ATTRIBUTE = AdmissionTokenGatewayFilterFactory.class.getName() + ".checked";

    private static final String BYPASS_SESSION_PREFIX = "bypass-";

    private static final Logger log = LoggerFactory.getLogger(AdmissionTokenGatewayFilterFactory.class);

    /** BYPASS lets requests through without a token, so a snapshot saying so is trusted only while recent. */
    private static final Duration BYPASS_TRUSTED_FOR = Duration.ofSeconds(10);

    /** A BYPASS not believed is logged at most this often (it may come with every request of a crowd). */
    private static final Duration BYPASS_REFUSAL_LOG_EVERY = Duration.ofSeconds(10);

    /** Events whose last mode statement's check is kept. */
    private static final int MODE_VERDICTS = 10_000;

    private final AdmissionTokenVerifier verifier;

    private final HttpJwksSource jwks;

    private final SessionRegistry registry;

    private final EventSnapshots snapshots;

    private final EdgeProperties edge;

    private final Clock clock;

    private final MeterRegistry meters;

    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

    private final Map<EventId, BypassLog> bypassLogs = new ConcurrentHashMap<>();

    /**
     * The last mode statement seen per event in BYPASS and what its check found, so each statement is verified once:
     * bounded, an event forgotten first when many are (a snapshot saying BYPASS for an event not kept is checked again).
     */
    private final Cache<EventId, ModeVerdict> modeVerdicts =
            Caffeine.newBuilder().maximumSize(MODE_VERDICTS).build();

    private final Map<String, Counter> bypassRefusals = new ConcurrentHashMap<>();

    private final AtomicReference<Instant> lastBypassRefusalLog = new AtomicReference<>(Instant.EPOCH);

    AdmissionTokenGatewayFilterFactory(
            AdmissionTokenVerifier verifier,
            HttpJwksSource jwks,
            SessionRegistry registry,
            EventSnapshots snapshots,
            EdgeProperties edge,
            Clock clock,
            MeterRegistry meters) {
        super(Config.class);
        this.verifier = verifier;
        this.jwks = jwks;
        this.registry = registry;
        this.snapshots = snapshots;
        this.edge = edge;
        this.clock = clock;
        this.meters = meters;
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("allowExpired");
    }

    @Override
    public GatewayFilter apply(Config config) {
        return (exchange, chain) -> {
            Optional<EventId> eventId = eventOf(exchange);
            if (eventId.isEmpty()) {
                return ProblemResponses.write(exchange, ProblemType.NOT_FOUND, "There is nothing at this address.");
            }
            return snapshots
                    .latest(eventId.get())
                    .map(Optional::of)
                    .defaultIfEmpty(Optional.empty())
                    .flatMap(snapshot -> check(exchange, chain, config, eventId.get(), snapshot));
        };
    }

    /**
     * The event whose admission the request needs: the one whose protected path it matched ({@link
     * ProtectedRoutes#EVENT_ATTRIBUTE}), else the route's {@code {eventId}}.
     */
    static Optional<EventId> eventOf(ServerWebExchange exchange) {
        EventId matched = ProtectedRoutes.eventOf(exchange);
        if (matched != null) {
            return Optional.of(matched);
        }
        return EventId.parse(
                ServerWebExchangeUtils.getUriTemplateVariables(exchange).get("eventId"));
    }

    private Mono<Void> check(
            ServerWebExchange exchange,
            GatewayFilterChain chain,
            Config config,
            EventId eventId,
            Optional<TimedSnapshot> snapshot) {
        if (snapshot.isPresent()
                && snapshot.get().snapshot().mode() == OperatingMode.BYPASS
                && snapshot.get().ageAt(clock.instant()).compareTo(BYPASS_TRUSTED_FOR) < 0) {
            QueueSnapshot said = snapshot.get().snapshot();
            return signedBypass(exchange, eventId, said)
                    .flatMap(signed -> signed
                            ? bypass(exchange, chain, eventId, said)
                            : admission(exchange, chain, config, eventId, snapshot));
        }
        return admission(exchange, chain, config, eventId, snapshot);
    }

    /** BYPASS: through without a token, counted and logged loudly. */
    private Mono<Void> bypass(
            ServerWebExchange exchange, GatewayFilterChain chain, EventId eventId, QueueSnapshot snapshot) {
        count("bypass");
        BypassLog bypassLog = bypassLogs.computeIfAbsent(eventId, id -> new BypassLog());
        RequestIdWebFilter.withCorrelation(exchange, () -> bypassLog.record(eventId, clock.instant()));
        // the origin learns of it from the header's BYPASS scope for the verified visitor; without a visitor
        // there is no header and a verifying origin refuses
        VisitorIdentityWebFilter.visitorOf(exchange)
                .ifPresent(visitor -> checked(
                        exchange,
                        eventId.value(),
                        BYPASS_SESSION_PREFIX + visitor.value(),
                        visitor.value(),
                        snapshot.saleGeneration(),
                        AdmissionHeader.Scope.BYPASS));
        return chain.filter(exchange);
    }

    /**
     * Whether the snapshot's BYPASS is the coordinator's: its mode statement verifies with the coordinator's keys (the
     * JWKS admission tokens verify with), names this event, says BYPASS, is of this sale round or later and has not
     * expired (docs/design/security/signed-mode.md). The queue-service stores whatever mode it is told; only the
     * coordinator can sign one. A statement is verified once (off the event loop: the key source may be read) and its
     * verdict kept per event (bounded) until another statement replaces it, so neither the coordinator's nor a forged
     * one is verified per request; an unknown key is checked again (the JWKS is read at most once a second). Otherwise the event is treated as QUEUEING:
     * counted ({@code waitroom.gateway.bypass.refused} by reason) and logged at most once per 10 s.
     */
    private Mono<Boolean> signedBypass(ServerWebExchange exchange, EventId eventId, QueueSnapshot snapshot) {
        String statement = snapshot.modeStatement();
        if (statement == null) {
            return Mono.just(refuseBypass(exchange, eventId, "unsigned"));
        }
        Instant now = clock.instant();
        ModeVerdict known = modeVerdicts.getIfPresent(eventId);
        if (known != null && known.statement().equals(statement)) {
            String refusal = known.refusalAt(now, snapshot.saleGeneration());
            return Mono.just(refusal == null || refuseBypass(exchange, eventId, refusal));
        }
        return Mono.fromCallable(() -> verifier.verifyModeStatement(statement, eventId.value()))
                .subscribeOn(Schedulers.boundedElastic())
                .map(verified -> {
                    ModeVerdict verdict = verified.bypass()
                            ? new ModeVerdict(statement, null, verified.saleGeneration(), verified.expiresAt())
                            : new ModeVerdict(statement, "not-bypass", 0, Instant.EPOCH);
                    modeVerdicts.put(eventId, verdict);
                    String refusal = verdict.refusalAt(clock.instant(), snapshot.saleGeneration());
                    return refusal == null || refuseBypass(exchange, eventId, refusal);
                })
                .onErrorResume(TokenRejectedException.class, ex -> {
                    String reason = ex.reason().name().toLowerCase(java.util.Locale.ROOT);
                    if (ex.reason() != RejectionReason.UNKNOWN_KEY) {
                        // refused for good: a key published later cannot make this statement verify
                        modeVerdicts.put(eventId, new ModeVerdict(statement, reason, 0, Instant.EPOCH));
                    }
                    return Mono.just(refuseBypass(exchange, eventId, reason));
                })
                .onErrorResume(ex -> Mono.just(refuseBypass(exchange, eventId, "unavailable")));
    }

    /** Counts and (at most once per 10 s) logs a BYPASS not believed; always false. */
    private boolean refuseBypass(ServerWebExchange exchange, EventId eventId, String reason) {
        bypassRefusals
                .computeIfAbsent(
                        reason,
                        r -> Counter.builder("waitroom.gateway.bypass.refused")
                                .tag("reason", r)
                                .description(
                                        "Snapshots saying BYPASS without a valid coordinator statement of it, by reason")
                                .register(meters))
                .increment();
        Instant now = clock.instant();
        Instant last = lastBypassRefusalLog.get();
        if (!now.isBefore(last.plus(BYPASS_REFUSAL_LOG_EVERY)) && lastBypassRefusalLog.compareAndSet(last, now)) {
            RequestIdWebFilter.withCorrelation(
                    exchange,
                    () -> log.warn(
                            "BYPASS of event {} NOT honoured ({}): the queue says BYPASS without the coordinator's"
                                    + " valid signature of it; admission is required",
                            eventId,
                            reason));
        }
        return false;
    }

    /**
     * What the check of one mode statement found: {@code refusal} null for the coordinator's BYPASS (usable until it
     * expires, for its sale round and later ones), else why it is not believed.
     */
    private record ModeVerdict(String statement, String refusal, long saleGeneration, Instant expiresAt) {

        /** Null when it lets requests through now, for the snapshot's generation; else why not. */
        String refusalAt(Instant now, long currentGeneration) {
            if (refusal != null) {
                return refusal;
            }
            if (!now.isBefore(expiresAt.plus(AdmissionTokenVerifier.MODE_STATEMENT_SKEW))) {
                return "expired";
            }
            return saleGeneration < currentGeneration ? "old-generation" : null;
        }
    }

    /** The admission check proper: a valid token of a live session. */
    private Mono<Void> admission(
            ServerWebExchange exchange,
            GatewayFilterChain chain,
            Config config,
            EventId eventId,
            Optional<TimedSnapshot> snapshot) {
        PresentedToken presented = tokenOf(exchange);
        if (presented == null) {
            return reject(exchange, Verdict.TOKEN_REQUIRED);
        }
        // Without any snapshot (queue-service unreachable since start) the registry stays the
        // authority on the generation: it only holds a session at the generation it was admitted in.
        String token = presented.token();
        long generation =
                snapshot.map(timed -> timed.snapshot().saleGeneration()).orElse(0L);
        Mono<Checked> checked = Mono.fromCallable(() -> config.isAllowExpired()
                        ? verifier.verifyAllowingExpired(token, eventId.value(), edge.orderStatusGrace())
                        : verifier.verify(token, eventId.value(), generation))
                .subscribeOn(Schedulers.boundedElastic())
                .flatMap(claims -> verdictFor(exchange, config, claims).map(v -> new Checked(v, claims)))
                .onErrorResume(
                        TokenRejectedException.class,
                        ex -> Mono.just(new Checked(
                                // an unknown key while the JWKS cannot be read may be a new key: say so, fail closed
                                ex.reason() == RejectionReason.UNKNOWN_KEY && jwks.lastFetchFailed()
                                        ? Verdict.UNAVAILABLE
                                        : Verdict.of(ex),
                                null)))
                .onErrorResume(ex -> {
                    RequestIdWebFilter.withCorrelation(
                            exchange, () -> log.warn("Admission check failed: {}", ex.toString()));
                    return Mono.just(new Checked(Verdict.UNAVAILABLE, null));
                });
        return checked.flatMap(c -> c.verdict().allows()
                ? forward(exchange, chain, presented, c.verdict(), c.claims(), config)
                : reject(exchange, c.verdict()));
    }

    /** A verdict and, when the token verified, its claims ({@code null} otherwise). */
    private record Checked(Verdict verdict, AdmissionClaims claims) {}

    private Mono<Verdict> verdictFor(ServerWebExchange exchange, Config config, AdmissionClaims claims) {
        if (edge.bindTokenToVisitor()) {
            String visitor = VisitorIdentityWebFilter.visitorOf(exchange)
                    .map(VisitorId::value)
                    .orElse(null);
            if (!claims.visitor().equals(visitor)) {
                return Mono.just(Verdict.VISITOR_MISMATCH);
            }
        }
        if (config.isAllowExpired()) {
            // an order read: allowed either way; a token of a session still live (current generation, in the registry)
            // is told to the origin as shopping (a later session of the same visitor may read the order), any other
            // as order-status (the session that placed it only)
            if (!claims.expiresAt().isAfter(clock.instant())) {
                return Mono.just(Verdict.ALLOWED_ORDER_STATUS);
            }
            return registry.liveness(claims)
                    .map(liveness -> liveness == Liveness.LIVE ? Verdict.ALLOWED : Verdict.ALLOWED_ORDER_STATUS);
        }
        return registry.liveness(claims).map(liveness -> switch (liveness) {
            case LIVE -> Verdict.ALLOWED;
            case ENDED -> Verdict.SESSION_ENDED;
            case UNKNOWN -> Verdict.REGISTRY_UNAVAILABLE;
        });
    }

    private Mono<Void> forward(
            ServerWebExchange exchange,
            GatewayFilterChain chain,
            PresentedToken presented,
            Verdict verdict,
            AdmissionClaims claims,
            Config config) {
        count(verdict.outcome());
        checked(
                exchange,
                claims.eventId(),
                claims.sessionId(),
                claims.visitor(),
                claims.saleGeneration(),
                verdict == Verdict.ALLOWED_ORDER_STATUS
                        ? AdmissionHeader.Scope.ORDER_STATUS
                        : AdmissionHeader.Scope.SHOPPING);
        if (!presented.bearer() && !bearerIs(exchange, presented.token())) {
            // the Authorization header, if any, is the shop's own: forwarded untouched
            return chain.filter(exchange);
        }
        ServerWebExchange withoutBearer = exchange.mutate()
                .request(r -> r.headers(h -> h.remove(HttpHeaders.AUTHORIZATION)))
                .build();
        return chain.filter(withoutBearer);
    }

    /** A client that sends its admission token both ways: the Bearer copy is Waitroom's too, never the shop's. */
    private static boolean bearerIs(ServerWebExchange exchange, String token) {
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        return authorization != null
                && authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, Headers.BEARER_PREFIX.length())
                && authorization
                        .substring(Headers.BEARER_PREFIX.length())
                        .trim()
                        .equals(token);
    }

    /** Leaves what was checked, for this request only, for {@link AdmissionHeaderGlobalFilter} to sign. */
    private static void checked(
            ServerWebExchange exchange,
            String eventId,
            String sessionId,
            String visitor,
            long generation,
            AdmissionHeader.Scope scope) {
        ServerHttpRequest request = exchange.getRequest();
        exchange.getAttributes()
                .put(
                        CHECKED_ATTRIBUTE,
                        new CheckedRequest(
                                eventId,
                                sessionId,
                                visitor,
                                generation,
                                scope,
                                request.getMethod().name(),
                                request.getURI().getRawPath()));
    }

    private Mono<Void> reject(ServerWebExchange exchange, Verdict verdict) {
        count(verdict.outcome());
        if (log.isDebugEnabled()) {
            // why a shopper was refused, for support (the client got the problem type; the access line has the status)
            RequestIdWebFilter.withCorrelation(
                    exchange, () -> log.debug("Shop request refused: {}", verdict.outcome()));
        }
        Optional<EventId> eventId = eventOf(exchange);
        if (verdict.problem().status() == 401 && eventId.isPresent()) {
            // a browser is sent to the waiting page and back (docs/integration/gateway-in-front.md#the-buyers-way-in)
            if (exchange.getAttribute(ForwardAuthWebFilter.ATTRIBUTE) != null) {
                // an origin's proxy turns this into its own 303 (docs/integration/forward-auth.md)
                WaitingRoomRedirects.forForwardAuth(exchange, eventId.get());
            } else if (WaitingRoomRedirects.isNavigation(exchange.getRequest())) {
                return WaitingRoomRedirects.redirect(exchange, eventId.get());
            } else {
                WaitingRoomRedirects.link(exchange, eventId.get());
            }
        }
        if (verdict.problem().status() == 401) {
            exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"waitroom-shop\"");
        }
        return ProblemResponses.write(exchange, verdict.problem(), verdict.detail());
    }

    private void count(String outcome) {
        outcomes.computeIfAbsent(
                        outcome,
                        o -> Counter.builder("waitroom.gateway.admission.checks")
                                .tag("outcome", o)
                                .description("Admission checks on protected routes by outcome")
                                .register(meters))
                .increment();
    }

    /**
     * An admission token and where it came from: {@code bearer} when from {@code Authorization} (then removed before
     * forwarding), else from the admission cookie.
     */
    record PresentedToken(String token, boolean bearer) {}

    /**
     * The admission cookie's token; only without one, a Bearer token. A browser's {@code Authorization} belongs to the
     * shop it visits (its own sign-in), so beside the cookie it is never read as an admission token, nor refused.
     */
    static PresentedToken tokenOf(ServerWebExchange exchange) {
        HttpCookie cookie = exchange.getRequest().getCookies().getFirst(COOKIE);
        if (cookie != null && !cookie.getValue().isBlank()) {
            return new PresentedToken(cookie.getValue(), false);
        }
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null
                && authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, Headers.BEARER_PREFIX.length())) {
            String token =
                    authorization.substring(Headers.BEARER_PREFIX.length()).trim();
            return token.isEmpty() ? null : new PresentedToken(token, true);
        }
        return null;
    }

    /** Logs BYPASS loudly, at most once per ten seconds per event, with the count in between. */
    private static final class BypassLog {

        private final AtomicLong since = new AtomicLong();

        private volatile Instant lastLogged = Instant.EPOCH;

        void record(EventId eventId, Instant now) {
            long count = since.incrementAndGet();
            if (now.isAfter(lastLogged.plusSeconds(10))) {
                lastLogged = now;
                since.addAndGet(-count);
                log.warn(
                        "BYPASS: event {} lets protected requests through WITHOUT admission ({} since last report)",
                        eventId,
                        count);
            }
        }
    }

    public static class Config {

        private boolean allowExpired;

        public boolean isAllowExpired() {
            return allowExpired;
        }

        public Config setAllowExpired(boolean allowExpired) {
            this.allowExpired = allowExpired;
            return this;
        }
    }
}
