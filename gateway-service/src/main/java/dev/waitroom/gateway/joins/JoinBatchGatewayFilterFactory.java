package dev.waitroom.gateway.joins;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.queue.JoinBatch;
import dev.waitroom.contract.queue.JoinResult;
import dev.waitroom.gateway.problem.ProblemResponses;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@code JoinBatch}, the last filter of route {@code queue-join}: in place of the forward, the join goes to the
 * queue-service in a batch with the others of its event ({@link JoinBatcher}, docs/design/architecture.md#batched-joins), and
 * its own result is written as the forwarded answer would have been: status, body, {@code Cache-Control: no-store},
 * the ticket and bound-visitor headers (which the ticket-cookie and account filters handle on the way out as before),
 * {@code Retry-After}. Every filter before it (identity, limits, proof of work, body limit) has run as for a forwarded
 * join; a batch carries only what a forwarded join gave the queue-service: the verified visitor, account and account
 * problem, and the body. A join whose body is long, unusual (control or non-ASCII characters) or streamed without a
 * length is forwarded on its own, as with batching off.
 */
@Component
public class JoinBatchGatewayFilterFactory extends AbstractGatewayFilterFactory<Object> {

    private final JoinBatchProperties properties;

    private final JoinBatcher batcher;

    JoinBatchGatewayFilterFactory(JoinBatchProperties properties, JoinBatcher batcher) {
        super(Object.class);
        this.properties = properties;
        this.batcher = batcher;
    }

    /**
     * Runs where the forward would, after every global filter but the routing ones: those that act on the answer
     * (the ticket cookie's name on the wire, the account filter's header removal) register their hooks as for a
     * forwarded join.
     */
    static final int ORDER = NettyRoutingFilter.ORDER - 10;

    @Override
    public GatewayFilter apply(Object config) {
        return new OrderedGatewayFilter(this::filter, ORDER);
    }

    private Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (!properties.enabled()) {
            return chain.filter(exchange);
        }
        Optional<EventId> event = EventId.parse(
                ServerWebExchangeUtils.getUriTemplateVariables(exchange).get("eventId"));
        HttpHeaders headers = exchange.getRequest().getHeaders();
        long length = headers.getContentLength();
        boolean streamed = length < 0 && headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
        if (event.isEmpty() || streamed || length > JoinBatch.MAX_BODY_CHARS) {
            return chain.filter(exchange);
        }
        if (length <= 0) {
            return batched(exchange, chain, event.get(), null);
        }
        return DataBufferUtils.join(exchange.getRequest().getBody())
                .map(buffer -> {
                    try {
                        return buffer.toString(StandardCharsets.UTF_8);
                    } finally {
                        DataBufferUtils.release(buffer);
                    }
                })
                .defaultIfEmpty("")
                .flatMap(body -> batched(exchange, chain, event.get(), body));
    }

    private Mono<Void> batched(ServerWebExchange exchange, GatewayFilterChain chain, EventId event, String body) {
        HttpHeaders headers = exchange.getRequest().getHeaders();
        JoinBatch.Join join = new JoinBatch.Join(
                headers.getFirst(Headers.VISITOR),
                headers.getFirst(Headers.ACCOUNT),
                headers.getFirst(Headers.ACCOUNT_PROBLEM),
                body == null || body.isEmpty() ? null : body);
        if (!join.batchable()) {
            return chain.filter(body == null ? exchange : withBody(exchange, body));
        }
        Optional<Mono<JoinResult>> queued = batcher.join(event, join);
        if (queued.isEmpty()) {
            return ProblemResponses.write(
                    exchange,
                    ProblemType.UPSTREAM_UNAVAILABLE,
                    "A service behind the gateway is unavailable. Please retry shortly.");
        }
        return queued.get().flatMap(result -> write(exchange, result));
    }

    private static Mono<Void> write(ServerWebExchange exchange, JoinResult result) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatusCode.valueOf(result.status()));
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(result.problem() ? MediaType.APPLICATION_PROBLEM_JSON : MediaType.APPLICATION_JSON);
        headers.setCacheControl("no-store");
        if (result.ticket() != null) {
            headers.set(Headers.TICKET, result.ticket());
        }
        if (result.visitor() != null) {
            headers.set(Headers.VISITOR, result.visitor());
        }
        if (result.retryAfterSeconds() != null) {
            headers.set(HttpHeaders.RETRY_AFTER, Long.toString(result.retryAfterSeconds()));
        }
        byte[] bytes = result.body() == null ? new byte[0] : result.body().getBytes(StandardCharsets.UTF_8);
        headers.setContentLength(bytes.length);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(bytes)));
    }

    /** The exchange with the body already read from the browser, for a join forwarded on its own. */
    private static ServerWebExchange withBody(ServerWebExchange exchange, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ServerHttpRequest request = new ServerHttpRequestDecorator(exchange.getRequest()) {
            @Override
            public Flux<DataBuffer> getBody() {
                return Flux.defer(
                        () -> Flux.just(exchange.getResponse().bufferFactory().wrap(bytes)));
            }
        };
        return exchange.mutate().request(request).build();
    }
}
