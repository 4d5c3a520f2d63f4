package dev.waitroom.gateway.admission;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.config.EdgeProperties;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.events.TimedSnapshot;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import dev.waitroom.gateway.routes.WaitingRoomRedirects;
import dev.waitroom.tokens.AdmissionClaims;
import dev.waitroom.tokens.AdmissionTokenVerifier;
import dev.waitroom.tokens.HmacKey;
import dev.waitroom.tokens.RejectionReason;
import dev.waitroom.tokens.ShopAssertion;
import dev.waitroom.tokens.ShopAssertionCodec;
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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
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
 * route table names: docs/integration/gateway-in-front.md; docs/ARCHITECTURE.md#admission-path): the token comes from
 * {@code Authorization: Bearer} or the event's admission cookie (presented as {@code wr_at}); its signature, event, sale generation (from the
 * event snapshot) and expiry are verified (once per token, then cached), the visitor binding is compared with the
 * verified visitor cookie, and the session must still be in the live-session registry. With {@link
 * Config#isAllowExpired()} (order status) a token that expired within the grace period is accepted without the liveness
 * check: it can read an order, never shop. In BYPASS mode (from a snapshot at most 10 s old) requests pass without a
 * token, counted and logged. A refused browser navigation is sent to the event's waiting page with its path as the
 * return target ({@link WaitingRoomRedirects}); any other refusal carries a {@code Link} to it.
 *
 * <p>A request that passes leaves a {@link ShopAssertion} for exactly its method and raw path, signed with {@code
 * waitroom.security.assertion-key}, in {@link #SHOP_ASSERTION_ATTRIBUTE}; the internal-credential global filter sends it
 * as {@link Headers#ASSERTION} and drops any client copy. Booking accepts a shop request only with one, so a token
 * whose session has ended is refused there too (docs/security/booking.md). One HMAC per forwarded request.
 */
@Component
public class AdmissionTokenGatewayFilterFactory
        extends AbstractGatewayFilterFactory<AdmissionTokenGatewayFilterFactory.Config> {

    static final String COOKIE = "wr_at";

    /** The signed {@link ShopAssertion} of a request that passed (a String), read by the internal-credential filter. */
    public static final String SHOP_ASSERTION_ATTRIBUTE =
            AdmissionTokenGatewayFilterFactory.class.getName() + ".assertion";

    /** What was checked for a request that passed (a {@link ShopAssertion}, unsigned), read by the admission-header filter. */
    static final String CHECKED_ATTRIBUTE = AdmissionTokenGatewayFilterFactory.class.getName() + ".checked";

    private static final String BYPASS_SESSION_PREFIX = "bypass-";

    private static final Logger log = LoggerFactory.getLogger(AdmissionTokenGatewayFilterFactory.class);

    /** BYPASS lets requests through without a token, so a snapshot saying so is trusted only while recent. */
    private static final Duration BYPASS_TRUSTED_FOR = Duration.ofSeconds(10);

    private final AdmissionTokenVerifier verifier;

    private final HttpJwksSource jwks;

    private final SessionRegistry registry;

    private final EventSnapshots snapshots;

    private final EdgeProperties edge;

    private final Clock clock;

    private final MeterRegistry meters;

    private final ShopAssertionCodec assertions;

    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();

    private final Map<EventId, BypassLog> bypassLogs = new ConcurrentHashMap<>();

    AdmissionTokenGatewayFilterFactory(
            AdmissionTokenVerifier verifier,
            HttpJwksSource jwks,
            SessionRegistry registry,
            EventSnapshots snapshots,
            EdgeProperties edge,
            Clock clock,
            MeterRegistry meters,
            @Value("${waitroom.security.assertion-key:}") String assertionKey) {
        super(Config.class);
        this.assertions = ShopAssertionCodec.of(assertionKey(assertionKey));
        this.verifier = verifier;
        this.jwks = jwks;
        this.registry = registry;
        this.snapshots = snapshots;
        this.edge = edge;
        this.clock = clock;
        this.meters = meters;
    }

    /** The key booking checks assertions with; none, or a weak one, stops the gateway at start. */
    private static HmacKey assertionKey(String base64) {
        if (base64 == null || base64.isBlank()) {
            throw new IllegalStateException("waitroom.security.assertion-key (WAITROOM_SECURITY_ASSERTIONKEY) must be "
                    + "set: base64 of 32 random bytes, the same value as booking's");
        }
        try {
            return HmacKey.fromBase64(base64);
        } catch (IllegalArgumentException ex) {
            // HmacKey's messages never echo the value
            throw new IllegalStateException("waitroom.security.assertion-key (WAITROOM_SECURITY_ASSERTIONKEY) must be "
                    + "base64 of at least " + HmacKey.MIN_SECRET_BYTES + " random bytes: " + ex.getMessage());
        }
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
            count("bypass");
            BypassLog bypassLog = bypassLogs.computeIfAbsent(eventId, id -> new BypassLog());
            RequestIdWebFilter.withCorrelation(exchange, () -> bypassLog.record(eventId, clock.instant()));
            // booking honours it only together with the internal credential and a BYPASS assertion for the verified
            // visitor; without a visitor there is no assertion and booking refuses
            VisitorIdentityWebFilter.visitorOf(exchange)
                    .ifPresent(visitor -> assertFor(
                            exchange,
                            eventId.value(),
                            BYPASS_SESSION_PREFIX + visitor.value(),
                            visitor.value(),
                            snapshot.get().snapshot().saleGeneration(),
                            ShopAssertion.Scope.BYPASS));
            ServerWebExchange bypassing = exchange.mutate()
                    .request(r -> r.headers(h -> h.set(Headers.BYPASS, eventId.value())))
                    .build();
            return chain.filter(bypassing);
        }
        String token = tokenOf(exchange);
        if (token == null) {
            return reject(exchange, Verdict.TOKEN_REQUIRED);
        }
        // Without any snapshot (queue-service unreachable since start) the registry stays the
        // authority on the generation: it only holds a session at the generation it was admitted in.
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
                ? forward(exchange, chain, token, c.verdict(), c.claims(), config)
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
            return Mono.just(Verdict.ALLOWED_ORDER_STATUS);
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
            String token,
            Verdict verdict,
            AdmissionClaims claims,
            Config config) {
        count(verdict.outcome());
        assertFor(
                exchange,
                claims.eventId(),
                claims.sessionId(),
                claims.visitor(),
                claims.saleGeneration(),
                config.isAllowExpired() ? ShopAssertion.Scope.ORDER_STATUS : ShopAssertion.Scope.SHOPPING);
        ServerWebExchange withBearer = exchange.mutate()
                .request(r -> r.headers(h -> h.set(HttpHeaders.AUTHORIZATION, Headers.BEARER_PREFIX + token)))
                .build();
        return chain.filter(withBearer);
    }

    /** Signs what was checked, for this request only, and leaves it for the internal-credential filter to send. */
    private void assertFor(
            ServerWebExchange exchange,
            String eventId,
            String sessionId,
            String visitor,
            long generation,
            ShopAssertion.Scope scope) {
        ServerHttpRequest request = exchange.getRequest();
        ShopAssertion checked = ShopAssertion.forRequest(
                eventId,
                sessionId,
                visitor,
                generation,
                scope,
                request.getMethod().name(),
                request.getURI().getRawPath(),
                clock.instant());
        exchange.getAttributes().put(SHOP_ASSERTION_ATTRIBUTE, assertions.sign(checked));
        // the same verdict, for the Waitroom-Admission header (AdmissionHeaderGlobalFilter)
        exchange.getAttributes().put(CHECKED_ATTRIBUTE, checked);
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

    static String tokenOf(ServerWebExchange exchange) {
        String authorization = exchange.getRequest().getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null
                && authorization.regionMatches(true, 0, Headers.BEARER_PREFIX, 0, Headers.BEARER_PREFIX.length())) {
            String token =
                    authorization.substring(Headers.BEARER_PREFIX.length()).trim();
            return token.isEmpty() ? null : token;
        }
        HttpCookie cookie = exchange.getRequest().getCookies().getFirst(COOKIE);
        return (cookie == null || cookie.getValue().isBlank()) ? null : cookie.getValue();
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
