package dev.waitroom.gateway.accounts;

import dev.waitroom.contract.Headers;
import dev.waitroom.gateway.FilterOrder;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * The verified account of a visitor route (docs/integration/accounts.md). With an identity provider configured ({@link
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
 * is bound to, the id its offer was made to, so that the offer can be claimed from any browser the person signed in on:
 * this filter verifies the token and hands the account on ({@link ClaimingAccount}), {@link ClaimAccountWebFilter}
 * binds the claim; the coordinator gets no account header. Counting and refusing a token is {@link TokenVerdicts}'s,
 * reading and removing it {@link PresentedToken}'s.
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

    private final AccountsProperties properties;

    private final AccountTokens tokens;

    private final TokenVerdicts verdicts;

    AccountWebFilter(AccountsProperties properties, Clock clock, MeterRegistry meters) {
        this.properties = properties;
        this.tokens = properties.enabled() ? new AccountTokens(properties, clock) : null;
        this.verdicts = new TokenVerdicts(properties, meters);
        if (tokens != null) {
            log.info(
                    "Accounts: tokens of {} for audience {} ({})",
                    properties.issuer(),
                    properties.audience(),
                    properties.cookie() == null ? "Authorization: Bearer" : "Bearer or cookie " + properties.cookie());
        }
    }

    @Override
    public int getOrder() {
        // after VisitorIdentityWebFilter, which strips any client X-Waitroom-Account
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
        PresentedToken presented = PresentedToken.of(exchange.getRequest(), properties.cookie());
        if (presented == null) {
            return chain.filter(exchange);
        }
        String event = claiming ? claim.group(1) : null;
        return tokens.verify(presented.value()).flatMap(verification -> {
            if (verification instanceof AccountTokens.Verified ok) {
                verdicts.verified();
                ServerWebExchange forwarded = forward(exchange, ok.account(), !claiming, null);
                if (claiming) {
                    new ClaimingAccount(event, ok.account()).putOn(forwarded);
                }
                return chain.filter(forwarded);
            }
            if (presented.cookie()) {
                // the cookie is ambient: a stale one must not stop a BROWSER-scoped event, so the verdict goes to the
                // queue-service, which answers it for an ACCOUNT-scoped event (a claim simply goes on as the browser's)
                verdicts.ambient(exchange, verification);
                String problem = verification instanceof AccountTokens.Invalid ? "invalid" : "unavailable";
                return chain.filter(forward(exchange, null, !claiming, problem));
            }
            return verdicts.refuse(exchange, verification);
        });
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
        ServerHttpRequest request = exchange.getRequest()
                .mutate()
                .headers(h -> {
                    PresentedToken.remove(h, properties.cookie());
                    if (queueRoute && account != null) {
                        h.set(Headers.ACCOUNT, account);
                    }
                    if (queueRoute && problem != null) {
                        h.set(Headers.ACCOUNT_PROBLEM, problem);
                    }
                })
                .build();
        return exchange.mutate().request(request).build();
    }
}
