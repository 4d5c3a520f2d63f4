package dev.waitroom.gateway.identity;

import dev.waitroom.contract.Headers;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * The visitor id rotates at claim (route filter {@code VisitorRotation}, docs/ARCHITECTURE.md#identity): the gateway
 * mints a new id and sends it with the claim as {@code X-Waitroom-Next-Visitor}; the coordinator finds the offer by the
 * current id, binds the session and its tokens to the new one in the same statement, and answers the id it bound in
 * {@code X-Waitroom-Visitor}. When that is the id minted here, the browser gets it as its new visitor cookie; otherwise
 * (a repeated claim by the session's own id, any refusal) the cookie stays. So a visitor cookie copied while the visitor
 * waited is worth nothing in the shop: the admission check, booking and the renew and leave calls all see the new id.
 * The coordinator's header never reaches the browser.
 */
@Component
public class VisitorRotationGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final VisitorIdentityWebFilter identity;

    private final EdgeCookies cookies;

    private final Counter rotated;

    VisitorRotationGatewayFilterFactory(VisitorIdentityWebFilter identity, EdgeCookies cookies, MeterRegistry meters) {
        super(Object.class);
        this.identity = identity;
        this.cookies = cookies;
        this.rotated = Counter.builder("waitroom.gateway.visitor.cookies")
                .tag("outcome", "rotated")
                .description("Visitor ids replaced by a new one when the visitor claimed an offer")
                .register(meters);
    }

    @Override
    public GatewayFilter apply(Object config) {
        return (exchange, chain) -> {
            VisitorId next = VisitorId.random();
            ServerWebExchange withNext = exchange.mutate()
                    .request(r -> r.headers(h -> h.set(Headers.NEXT_VISITOR, next.value())))
                    .build();
            ServerHttpResponse response = exchange.getResponse();
            response.beforeCommit(() -> {
                String bound = response.getHeaders().getFirst(Headers.VISITOR);
                response.getHeaders().remove(Headers.VISITOR);
                HttpStatusCode status = response.getStatusCode();
                if (status != null && status.is2xxSuccessful() && next.value().equals(bound)) {
                    // replaces a cookie this request may have issued (it came without a valid one)
                    response.getCookies().put(cookies.visitorName(), List.of(identity.cookieFor(next)));
                    rotated.increment();
                }
                return Mono.empty();
            });
            return chain.filter(withNext);
        };
    }
}
