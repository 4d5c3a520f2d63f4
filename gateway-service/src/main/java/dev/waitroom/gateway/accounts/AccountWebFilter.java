package dev.waitroom.gateway.accounts;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.gateway.problem.ProblemResponses;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpCookie;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import tools.jackson.databind.json.JsonMapper;

/**
 * The verified account of a visitor route (docs/accounts.md). With an identity provider configured ({@link
 * AccountsProperties#enabled()}), a request to {@code /events/{e}/queue} (join, leave) or {@code
 * /events/{e}/queue/status} that carries a sign-in token, in {@code Authorization: Bearer} or else in the configured
 * cookie, is forwarded with the account's pseudonym in {@code X-Waitroom-Account} when the token is valid. A bearer token
 * that is not is answered here: 401 {@code account-token-invalid} when it proves nothing (never silently anonymous), 503
 * {@code unavailable} while the provider's keys cannot be read (fail closed: no join is placed under a guess). A cookie
 * is ambient (the site sets it for every page, and a stale one must not stop a BROWSER-scoped sale), so its verdict goes
 * to the queue-service in {@code X-Waitroom-Account-Problem} ({@code invalid}, {@code unavailable}), which answers the
 * same problems for an ACCOUNT-scoped event and nothing else. The token itself is never forwarded: the {@code
 * Authorization} header and the cookie are removed.
 *
 * <p>A claim ({@code /events/{e}/admission/claim}) with a valid token is made under the visitor id the account's place
 * is bound to, the id its offer was made to, so that the offer can be claimed from any browser the person signed in on
 * ({@link #claimUnderTheBoundVisitor}); the coordinator gets no account header.
 *
 * <p>A request without a token goes on without an account; for an ACCOUNT-scoped event the queue-service answers it 401
 * {@code sign-in-required} (the gateway does not know an event's scope). Any {@code X-Waitroom-Account} a client sends is
 * removed before this filter by {@code VisitorIdentityWebFilter}, on every route. A status poll the edge answers from
 * the queue ticket never reaches this filter: the ticket already proves which entry it is.
 */
@Component
class AccountWebFilter implements WebFilter, Ordered {

    private static final Logger log = LoggerFactory.getLogger(AccountWebFilter.class);

    private static final Pattern QUEUE_ROUTE = Pattern.compile("/events/[^/]+/queue(/status)?/?");

    private static final Pattern CLAIM_ROUTE = Pattern.compile("/events/([^/]+)/admission/claim/?");

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** How long a claim waits for the queue-service to name the visitor id of the account's place. */
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(2);

    private static final String BEARER = "bearer ";

    private final AccountsProperties properties;

    private final AccountTokens tokens;

    private final Map<String, Object> signIn;

    private final Counter verified;

    private final Counter invalid;

    private final Counter unavailable;

    private final Counter claimsForAnotherBrowser;

    private final WebClient queue;

    AccountWebFilter(
            AccountsProperties properties,
            Clock clock,
            MeterRegistry meters,
            ServicesProperties services,
            SecretsProperties secrets,
            ObservationRegistry observations) {
        this.properties = properties;
        this.queue = EventSnapshots.internalQueueClient(services, secrets, observations);
        this.tokens = properties.enabled() ? new AccountTokens(properties, clock) : null;
        this.signIn = properties.signInUrl() == null ? Map.of() : Map.of("signInUrl", properties.signInUrl());
        this.verified = counter(meters, "verified");
        this.invalid = counter(meters, "invalid");
        this.unavailable = counter(meters, "unavailable");
        this.claimsForAnotherBrowser = Counter.builder("waitroom.gateway.accounts.claims")
                .tag("visitor", "bound-elsewhere")
                .description(
                        "Claims made under the visitor id another browser of the same account holds the place with")
                .register(meters);
        if (tokens != null) {
            log.info(
                    "Accounts: tokens of {} for audience {} ({})",
                    properties.issuer(),
                    properties.audience(),
                    properties.cookie() == null ? "Authorization: Bearer" : "Bearer or cookie " + properties.cookie());
        }
    }

    private static Counter counter(MeterRegistry meters, String outcome) {
        return Counter.builder("waitroom.gateway.accounts.tokens")
                .tag("outcome", outcome)
                .description("Sign-in tokens on visitor routes, by outcome")
                .register(meters);
    }

    @Override
    public int getOrder() {
        // after VisitorIdentityWebFilter (+20), which strips any client X-Waitroom-Account
        return FilterOrder.ACCOUNT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (tokens == null) {
            return chain.filter(exchange);
        }
        String path = exchange.getRequest().getPath().value();
        Matcher claim = CLAIM_ROUTE.matcher(path);
        boolean claiming = claim.matches();
        if (!claiming && !QUEUE_ROUTE.matcher(path).matches()) {
            return chain.filter(exchange);
        }
        Presented presented = tokenOf(exchange.getRequest());
        if (presented == null) {
            return chain.filter(exchange);
        }
        String event = claiming ? claim.group(1) : null;
        return tokens.verify(presented.token()).flatMap(verification -> {
            if (verification instanceof AccountTokens.Verified ok) {
                verified.increment();
                ServerWebExchange forwarded = forward(exchange, ok.account(), !claiming, null);
                return claiming
                        ? claimUnderTheBoundVisitor(forwarded, chain, event, ok.account())
                        : chain.filter(forwarded);
            }
            if (presented.cookie()) {
                // the cookie is ambient: a stale one must not stop a BROWSER-scoped event, so the verdict goes to the
                // queue-service, which answers it for an ACCOUNT-scoped event (a claim simply goes on as the browser's)
                RequestIdWebFilter.withCorrelation(exchange, () -> count(verification));
                String problem = verification instanceof AccountTokens.Invalid ? "invalid" : "unavailable";
                return chain.filter(forward(exchange, null, !claiming, problem));
            }
            return refuse(exchange, verification);
        });
    }

    /** A sign-in token and where it came from: the {@code Authorization} header, or the operator's cookie. */
    private record Presented(String token, boolean cookie) {}

    private void count(AccountTokens.Verification verification) {
        if (verification instanceof AccountTokens.Invalid bad) {
            invalid.increment();
            log.debug("sign-in cookie not accepted: {}", bad.reason());
        } else if (verification instanceof AccountTokens.Unavailable down) {
            unavailable.increment();
            log.warn("sign-in cookie not checked: the identity provider's keys cannot be read ({})", down.reason());
        }
    }

    /**
     * A claim by a signed-in browser is made under the visitor id the account's place is bound to, which is the id the
     * offer was made to (docs/accounts.md, "Two browsers, one place"): the queue-service names it to the gateway on a
     * status call with the account. So whichever of the person's browsers claims first gets the session, bound to its
     * own visitor id (sent as {@code X-Waitroom-Claiming-Visitor}, so its own cookie shops); the others then see the
     * place as taken. When the queue-service does not answer in time, or names no other id, the claim goes on under the
     * browser's own id.
     */
    private Mono<Void> claimUnderTheBoundVisitor(
            ServerWebExchange exchange, WebFilterChain chain, String event, String account) {
        VisitorId caller = VisitorIdentityWebFilter.visitorOf(exchange).orElse(null);
        if (caller == null || !EventId.isValid(event)) {
            return chain.filter(exchange);
        }
        return queue.get()
                .uri("/events/{event}/queue/status", event)
                .header(Headers.VISITOR, caller.value())
                .header(Headers.ACCOUNT, account)
                .exchangeToMono(response -> {
                    String bound = response.headers().asHttpHeaders().getFirst(Headers.VISITOR);
                    if (bound == null) {
                        return response.releaseBody().then(Mono.<String>empty());
                    }
                    // only an offer is claimed under the bound id: once the place is ACTIVE the session belongs to
                    // the browser that claimed it (bound to its own id), whose repeated claim must stay its own
                    return response.bodyToMono(String.class)
                            .filter(AccountWebFilter::offered)
                            .map(body -> bound);
                })
                .timeout(LOOKUP_TIMEOUT)
                .onErrorResume(e -> Mono.empty())
                .filter(bound -> VisitorId.isValid(bound) && !bound.equals(caller.value()))
                .map(bound -> {
                    claimsForAnotherBrowser.increment();
                    return exchange.mutate()
                            .request(r -> r.headers(h -> {
                                h.set(Headers.VISITOR, bound);
                                h.set(Headers.CLAIMING_VISITOR, caller.value());
                            }))
                            .build();
                })
                .defaultIfEmpty(exchange)
                .flatMap(chain::filter);
    }

    private static boolean offered(String statusBody) {
        try {
            return "OFFERED".equals(JSON.readTree(statusBody).path("state").asString(""));
        } catch (RuntimeException malformed) {
            return false;
        }
    }

    private Mono<Void> refuse(ServerWebExchange exchange, AccountTokens.Verification verification) {
        if (verification instanceof AccountTokens.Invalid bad) {
            invalid.increment();
            RequestIdWebFilter.withCorrelation(exchange, () -> log.debug("sign-in token refused: {}", bad.reason()));
            exchange.getResponse().getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer error=\"invalid_token\"");
            return ProblemResponses.write(
                    exchange,
                    ProblemType.ACCOUNT_TOKEN_INVALID,
                    "The sign-in token was not accepted (expired, for another site, or not signed by the identity"
                            + " provider). Sign in again.",
                    signIn);
        }
        unavailable.increment();
        RequestIdWebFilter.withCorrelation(
                exchange,
                () -> log.warn(
                        "sign-in token not checked: the identity provider's keys cannot be read ({})",
                        ((AccountTokens.Unavailable) verification).reason()));
        return ProblemResponses.write(
                exchange,
                ProblemType.UNAVAILABLE,
                "The sign-in cannot be checked right now; nothing was changed. Try again in a few seconds.");
    }

    /** The bearer token, else the configured cookie's value; null when neither is there. */
    private Presented tokenOf(ServerHttpRequest request) {
        String authorization = request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION);
        if (authorization != null
                && authorization.length() > BEARER.length()
                && authorization
                        .substring(0, BEARER.length())
                        .toLowerCase(Locale.ROOT)
                        .equals(BEARER)) {
            return new Presented(authorization.substring(BEARER.length()).trim(), false);
        }
        if (properties.cookie() != null) {
            HttpCookie cookie = request.getCookies().getFirst(properties.cookie());
            if (cookie != null && !cookie.getValue().isEmpty()) {
                return new Presented(cookie.getValue(), true);
            }
        }
        return null;
    }

    /**
     * The request without the token, with the {@code account} (or, when it gave none, the {@code problem}) for the
     * queue-service; {@code queueRoute}: the queue-service names the visitor id of the account's place in {@code
     * X-Waitroom-Visitor}, for the gateway only.
     */
    private ServerWebExchange forward(ServerWebExchange exchange, String account, boolean queueRoute, String problem) {
        if (queueRoute) {
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                response.getHeaders().remove(Headers.VISITOR);
                return Mono.empty();
            });
        }
        String cookieName = properties.cookie();
        ServerHttpRequest request = exchange.getRequest()
                .mutate()
                .headers(h -> {
                    h.remove(HttpHeaders.AUTHORIZATION);
                    if (queueRoute && account != null) {
                        h.set(Headers.ACCOUNT, account);
                    }
                    if (queueRoute && problem != null) {
                        h.set(Headers.ACCOUNT_PROBLEM, problem);
                    }
                    if (cookieName != null) {
                        List<String> cookies = h.get(HttpHeaders.COOKIE);
                        if (cookies != null) {
                            String kept = without(cookies, cookieName);
                            h.remove(HttpHeaders.COOKIE);
                            if (!kept.isEmpty()) {
                                h.set(HttpHeaders.COOKIE, kept);
                            }
                        }
                    }
                })
                .build();
        return exchange.mutate().request(request).build();
    }

    private static String without(List<String> cookieHeaders, String name) {
        return cookieHeaders.stream()
                .flatMap(header -> List.of(header.split(";")).stream())
                .map(String::trim)
                .filter(pair -> !pair.isEmpty())
                .filter(pair -> {
                    int eq = pair.indexOf('=');
                    return !(eq < 0 ? pair : pair.substring(0, eq).trim()).equals(name);
                })
                .collect(Collectors.joining("; "));
    }
}
