package dev.waitroom.gateway.identity;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.client.ClientLimits;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.redis.RedisReachability;
import dev.waitroom.gateway.routes.ProtectedRoutes;
import dev.waitroom.tokens.TokenRejectedException;
import dev.waitroom.tokens.VisitorCookieCodec;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Optional;
import org.springframework.core.Ordered;
import org.springframework.http.HttpCookie;
import org.springframework.http.ResponseCookie;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * Visitor identity (docs/design/architecture.md#identity). Every request loses any client-supplied identity or internal
 * header. Requests to an event's API carry the verified visitor id from the signed visitor cookie ({@code
 * wr_vid}, {@code __Host-wr_vid} over HTTPS: {@link EdgeCookies}) upstream as {@code X-Waitroom-Visitor}; a visitor
 * without a valid cookie gets a new random id and cookie. Static pages and the public event status never set the
 * cookie, so shared caches may keep them. The id is stable: it never changes at claim, so the visitor's place in every
 * event survives what the browser does in another (docs/design/architecture.md#identity). A shop's signals ({@code
 * /events/{e}/signals/*}) are no visitor's requests: they get no visitor id and mint no cookie.
 */
@Component
public class VisitorIdentityWebFilter implements WebFilter, Ordered {

    /** The visitor cookie's canonical name; its name on the wire is {@link EdgeCookies#visitorName()}. */
    public static final String COOKIE = EdgeCookies.VISITOR;

    /** Headers only the gateway sets (docs/reference/contracts.md#headers): client copies never pass. */
    private static final List<String> STRIPPED = List.of(
            Headers.VISITOR, Headers.CLAIMING_VISITOR, Headers.ACCOUNT, Headers.ACCOUNT_PROBLEM, Headers.INTERNAL);

    private static final String ATTRIBUTE = VisitorIdentityWebFilter.class.getName() + ".visitor";

    /** Below an event's path: a shop's signals (docs/integration/shop-signals.md). */
    private static final String SIGNALS = "signals/";

    private static final String ISSUED_ATTRIBUTE = VisitorIdentityWebFilter.class.getName() + ".issued";

    private final VisitorCookieCodec codec;

    private final EdgeCookies cookies;

    private final Counter issued;

    private final Counter rejected;

    private final ClientLimits limits;

    private final RedisReachability reachability;

    private final ProtectedRoutes routes;

    VisitorIdentityWebFilter(
            SecretsProperties secrets,
            EdgeCookies cookies,
            ClientLimits limits,
            RedisReachability reachability,
            MeterRegistry meters,
            ProtectedRoutes routes) {
        this.routes = routes;
        this.codec = secrets.visitorCookieCodec();
        this.cookies = cookies;
        this.limits = limits;
        this.reachability = reachability;
        this.issued = Counter.builder("waitroom.gateway.visitor.cookies")
                .tag("outcome", "issued")
                .description("Visitor identity cookies issued to browsers without one")
                .register(meters);
        this.rejected = Counter.builder("waitroom.gateway.visitor.cookies")
                .tag("outcome", "rejected")
                .description("Visitor cookies that failed verification and were replaced")
                .register(meters);
    }

    @Override
    public int getOrder() {
        return FilterOrder.VISITOR_IDENTITY;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String path = request.getPath().value();
        boolean needsVisitor = needsVisitor(path);
        // an event's protected path reads the visitor its admission is bound to, and issues none: without one there
        // is no admission to check (docs/integration/gateway-in-front.md); an allowed path checks none
        dev.waitroom.contract.routes.RouteTable.Entry entry =
                needsVisitor ? null : routes.table().match(request.getURI().getRawPath());
        boolean protectedPath = entry != null && !entry.allowed();
        VisitorId known = needsVisitor || protectedPath ? verified(exchange) : null;
        if (needsVisitor && known == null) {
            // a new identity: fails closed without Redis (what it is for, joining and claiming, needs Redis), and
            // costs a token of the client address's bucket (docs/design/abuse/client-limits.md)
            if (!reachability.reachable()) {
                return reachability.refuse(exchange, "new-visitor");
            }
            if (!limits.tryTake(ClientLimits.Local.NEW_VISITORS, exchange)) {
                return limits.refuse(exchange, ClientLimits.Local.NEW_VISITORS);
            }
        }
        VisitorId visitor = needsVisitor && known == null ? issue(exchange) : known;
        ServerHttpRequest stripped = request.mutate()
                .headers(headers -> {
                    STRIPPED.forEach(headers::remove);
                    if (visitor != null) {
                        headers.set(Headers.VISITOR, visitor.value());
                    }
                })
                .build();
        ServerWebExchange mutated = exchange.mutate().request(stripped).build();
        if (visitor != null) {
            mutated.getAttributes().put(ATTRIBUTE, visitor);
        }
        return chain.filter(mutated);
    }

    /**
     * True when this exchange's visitor id was issued by this very request: such a visitor has made
     * no request before, so a per-visitor limit has nothing to count yet.
     */
    public static boolean issuedNow(ServerWebExchange exchange) {
        return Boolean.TRUE.equals(exchange.getAttribute(ISSUED_ATTRIBUTE));
    }

    /** The verified (or newly issued) visitor of this exchange; empty outside the event API. */
    public static Optional<VisitorId> visitorOf(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(ATTRIBUTE));
    }

    /** The signed visitor cookie that carries {@code visitor}. */
    ResponseCookie cookieFor(VisitorId visitor) {
        return cookies.visitor(codec.encode(visitor));
    }

    private VisitorId verified(ServerWebExchange exchange) {
        HttpCookie cookie = exchange.getRequest().getCookies().getFirst(cookies.visitorName());
        if (cookie != null) {
            try {
                return codec.decode(cookie.getValue());
            } catch (TokenRejectedException ex) {
                rejected.increment();
            }
        }
        return null;
    }

    private VisitorId issue(ServerWebExchange exchange) {
        VisitorId fresh = VisitorId.random();
        exchange.getResponse().addCookie(cookieFor(fresh));
        issued.increment();
        exchange.getAttributes().put(ISSUED_ATTRIBUTE, Boolean.TRUE);
        return fresh;
    }

    /** The event API ({@code /events/{e}/...}) except the static shop page and the public event status. */
    static boolean needsVisitor(String path) {
        if (!path.startsWith("/events/")) {
            return false;
        }
        int eventEnd = path.indexOf('/', "/events/".length());
        if (eventEnd < 0 || eventEnd == path.length() - 1) {
            return false;
        }
        String rest = path.substring(eventEnd + 1);
        // the shop page and the public event status are the same for everyone (and cacheable); a shop's signals come
        // from its servers, authenticated by their own credential, never from a visitor
        return !rest.equals("shop-ui") && !rest.equals("status") && !rest.startsWith(SIGNALS);
    }
}
