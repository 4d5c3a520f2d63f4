package dev.waitroom.gateway.guard;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.FilterOrder;
import dev.waitroom.gateway.problem.ProblemResponses;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Refuses a body larger than any public call needs (the WebFlux counterpart of the web kit's {@code BodyLimitFilter}),
 * before anything is forwarded or a visitor cookie is issued, and reads a body only where a route takes one. Runs right
 * after {@link PathSafetyWebFilter}, on the normalised path. A declared {@code Content-Length} over the limit is
 * refused at once, unread, everywhere. Beyond that it depends on who answers (docs/design/security/input.md#bodies):
 *
 * <ul>
 *   <li><b>Waitroom's routes that take a body</b> (join and leave, claim, renew and leave of a session, shop signals, the
 *       payment webhook, {@code /admin/**}): a body without a declared length (HTTP/1.1 chunked) is counted as it
 *       arrives; the first byte past the limit stops the read and answers 413; a body within the limit is forwarded
 *       whole, with its length declared, so a Waitroom service never sees the start of a body the gateway refused. That
 *       read holds at most {@value #MAX_BODY_BYTES} bytes.
 *   <li><b>Requests that take no body</b> (any method on the waiting page, the status routes, the challenge,
 *       {@code /.well-known/**}, {@code /actuator/**}; a GET, HEAD, OPTIONS or TRACE anywhere, which
 *       {@link RequestHeadGuard} refuses before this): one that announces a body ({@code Transfer-Encoding}, or a
 *       {@code Content-Length} above 0) is refused at once with 400 {@code malformed-request} and the connection is
 *       closed, nothing of it read, so a client dribbling a body there holds nothing.
 *   <li><b>Everything forwarded to a shop origin</b> (the shop routes, an event's protected paths, the default origin):
 *       streamed, never buffered, its bytes counted as they pass; past the limit the forward is cut off, the origin
 *       sees the request fail rather than end, and the client gets 413 if no answer has started.
 * </ul>
 */
@Component
class BodyLimitWebFilter implements WebFilter, Ordered {

    static final int MAX_BODY_BYTES = 64 * 1024;

    /** Set on an exchange whose streamed body went past the limit: the failure that follows is a 413. */
    private static final String CUT_OFF = BodyLimitWebFilter.class.getName() + ".cutOff";

    @Override
    public int getOrder() {
        return FilterOrder.BODY_LIMIT;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        HttpHeaders headers = request.getHeaders();
        long length = headers.getContentLength();
        if (length > MAX_BODY_BYTES) {
            return tooLarge(exchange);
        }
        boolean chunked = headers.containsHeader(HttpHeaders.TRANSFER_ENCODING);
        if (length <= 0 && !chunked) {
            return chain.filter(exchange); // no body: every poll and page view
        }
        return switch (BodyRoutes.of(
                request.getMethod(), request.getPath().pathWithinApplication().value())) {
            case NONE -> refuseBody(exchange);
            case READ -> chunked ? readWhole(exchange, chain, request) : chain.filter(exchange);
            case STREAM -> chunked ? stream(exchange, chain, request) : chain.filter(exchange);
        };
    }

    private static Mono<Void> readWhole(ServerWebExchange exchange, WebFilterChain chain, ServerHttpRequest request) {
        return DataBufferUtils.join(request.getBody(), MAX_BODY_BYTES)
                .map(Read::copyOf)
                .defaultIfEmpty(Read.EMPTY)
                .onErrorResume(DataBufferLimitException.class, e -> Mono.just(Read.TOO_LARGE))
                .flatMap(read -> read.tooLarge()
                        ? tooLarge(exchange)
                        : chain.filter(exchange.mutate()
                                .request(new ReadBody(request, read.bytes()))
                                .build()));
    }

    /**
     * Forwards the body as it arrives, counting: the buffer that goes past the limit is released and fails the body's
     * stream, which fails the forward; that failure is then answered 413 unless the origin's answer has begun.
     */
    private static Mono<Void> stream(ServerWebExchange exchange, WebFilterChain chain, ServerHttpRequest request) {
        ServerHttpRequest counted = new ServerHttpRequestDecorator(request) {
            @Override
            public Flux<DataBuffer> getBody() {
                long[] seen = {0};
                return super.getBody().handle((buffer, sink) -> {
                    seen[0] += buffer.readableByteCount();
                    if (seen[0] > MAX_BODY_BYTES) {
                        DataBufferUtils.release(buffer);
                        exchange.getAttributes().put(CUT_OFF, Boolean.TRUE);
                        sink.error(new DataBufferLimitException("body past " + MAX_BODY_BYTES + " bytes"));
                    } else {
                        sink.next(buffer);
                    }
                });
            }
        };
        return chain.filter(exchange.mutate().request(counted).build())
                .onErrorResume(error -> exchange.getAttribute(CUT_OFF) != null, error -> {
                    // the rest of the body was never read: the connection cannot carry another request
                    exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
                    return tooLarge(exchange);
                });
    }

    private static Mono<Void> refuseBody(ServerWebExchange exchange) {
        exchange.getResponse().getHeaders().set(HttpHeaders.CONNECTION, "close");
        return ProblemResponses.write(
                exchange,
                ProblemType.MALFORMED_REQUEST,
                "This request takes no body; a "
                        + exchange.getRequest().getMethod().name() + " here is sent without one.");
    }

    private static Mono<Void> tooLarge(ServerWebExchange exchange) {
        return ProblemResponses.write(
                exchange, ProblemType.BODY_TOO_LARGE, "The request body is larger than " + MAX_BODY_BYTES + " bytes.");
    }

    /** What the read found: the body's bytes, or that it went past the limit. */
    private record Read(byte[] bytes, boolean tooLarge) {

        static final Read EMPTY = new Read(new byte[0], false);

        static final Read TOO_LARGE = new Read(new byte[0], true);

        /**
         * The bytes on the heap, the pooled buffer released at once: a body nobody goes on to read (a route the gateway
         * answers itself) then leaks nothing.
         */
        static Read copyOf(DataBuffer joined) {
            try {
                byte[] bytes = new byte[joined.readableByteCount()];
                joined.read(bytes);
                return new Read(bytes, false);
            } finally {
                DataBufferUtils.release(joined);
            }
        }
    }

    /** The request with its body read: the same bytes, now with their length declared instead of chunked. */
    private static final class ReadBody extends ServerHttpRequestDecorator {

        private final byte[] body;
        private final HttpHeaders headers;

        ReadBody(ServerHttpRequest delegate, byte[] body) {
            super(delegate);
            this.body = body;
            HttpHeaders copy = new HttpHeaders();
            copy.putAll(delegate.getHeaders());
            copy.remove(HttpHeaders.TRANSFER_ENCODING);
            copy.setContentLength(body.length);
            this.headers = HttpHeaders.readOnlyHttpHeaders(copy);
        }

        @Override
        public HttpHeaders getHeaders() {
            return headers;
        }

        @Override
        public Flux<DataBuffer> getBody() {
            return body.length == 0
                    ? Flux.empty()
                    : Flux.defer(() -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)));
        }
    }
}
