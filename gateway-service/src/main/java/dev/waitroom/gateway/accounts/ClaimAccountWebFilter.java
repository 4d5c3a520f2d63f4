package dev.waitroom.gateway.accounts;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.queue.QueueStatus;
import dev.waitroom.contract.queue.VisitorState;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.config.SecretsProperties;
import dev.waitroom.gateway.config.ServicesProperties;
import dev.waitroom.gateway.events.EventSnapshots;
import dev.waitroom.gateway.identity.VisitorIdentityWebFilter;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

/**
 * A claim by a signed-in browser is made under the visitor id the account's place is bound to, which is the id the offer
 * was made to (docs/integration/accounts.md, "Two browsers, one place"): the queue-service names it to the gateway on a status call
 * with the account. So whichever of the person's browsers claims first gets the session, bound to its own visitor id
 * (sent as {@code X-Waitroom-Claiming-Visitor}, so its own cookie shops); the others then see the place as taken. When
 * the queue-service does not answer in time, or names no other id, the claim goes on under the browser's own id; the
 * coordinator gets no account header. Only a claim {@link AccountWebFilter} verified an account for ({@link
 * ClaimingAccount}) is looked up: every other request passes with one attribute read.
 */
@Component
class ClaimAccountWebFilter implements WebFilter, Ordered {

    /** How long a claim waits for the queue-service to name the visitor id of the account's place. */
    private static final Duration LOOKUP_TIMEOUT = Duration.ofSeconds(2);

    private final WebClient queue;

    private final Counter claimsForAnotherBrowser;

    ClaimAccountWebFilter(
            ServicesProperties services,
            SecretsProperties secrets,
            ObservationRegistry observations,
            MeterRegistry meters) {
        this.queue = EventSnapshots.internalQueueClient(services, secrets, observations);
        this.claimsForAnotherBrowser = Counter.builder("waitroom.gateway.accounts.claims")
                .tag("visitor", "bound-elsewhere")
                .description(
                        "Claims made under the visitor id another browser of the same account holds the place with")
                .register(meters);
    }

    @Override
    public int getOrder() {
        return FilterOrder.CLAIM_ACCOUNT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ClaimingAccount claim = ClaimingAccount.of(exchange).orElse(null);
        if (claim == null) {
            return chain.filter(exchange);
        }
        VisitorId caller = VisitorIdentityWebFilter.visitorOf(exchange).orElse(null);
        if (caller == null || !EventId.isValid(claim.event())) {
            return chain.filter(exchange);
        }
        return boundVisitor(claim, caller)
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

    /**
     * The visitor id the queue-service names for the account's place, while that place holds an offer: once it is
     * ACTIVE the session belongs to the browser that claimed it (bound to its own id), whose repeated claim must stay
     * its own. Empty when none is named, the place holds no offer, or the body does not read as a status.
     */
    private Mono<String> boundVisitor(ClaimingAccount claim, VisitorId caller) {
        return queue.get()
                .uri("/events/{event}/queue/status", claim.event())
                .header(Headers.VISITOR, caller.value())
                .header(Headers.ACCOUNT, claim.account())
                .exchangeToMono(response -> {
                    String bound = response.headers().asHttpHeaders().getFirst(Headers.VISITOR);
                    if (bound == null) {
                        return response.releaseBody().then(Mono.<String>empty());
                    }
                    return response.bodyToMono(QueueStatus.class)
                            .filter(status -> VisitorState.of(status).orElse(null) == VisitorState.OFFERED)
                            .map(status -> bound);
                });
    }
}
