package dev.waitroom.gateway.routing;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.problem.ProblemResponses;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferLimitException;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
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
 * before anything is forwarded or a visitor cookie is issued. Runs right after {@link PathSafetyWebFilter}.
 *
 * <p>A declared {@code Content-Length} over the limit is refused at once, unread. A body without one (HTTP/1.1
 * chunked) is counted as it arrives: the first byte past the limit stops the read and answers 413; a body within the
 * limit is forwarded whole, with its length declared, so an upstream never sees the start of a body the gateway
 * refused. That read holds at most {@value #MAX_BODY_BYTES} bytes, and only for chunked requests (browsers declare
 * their lengths); requests without a body, the status polls among them, pass untouched.
 */
@Component
class BodyLimitWebFilter implements WebFilter, Ordered {

    static final int MAX_BODY_BYTES = 64 * 1024;

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE + 11;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        long length = request.getHeaders().getContentLength();
        if (length > MAX_BODY_BYTES) {
            return tooLarge(exchange);
        }
        if (length >= 0 || !streamsABody(request)) {
            return chain.filter(exchange);
        }
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
     * Whether a request without a declared length carries a body: HTTP/1.1 says so with {@code Transfer-Encoding}; a
     * GET or HEAD without it has none.
     */
    private static boolean streamsABody(ServerHttpRequest request) {
        if (request.getHeaders().containsHeader(HttpHeaders.TRANSFER_ENCODING)) {
            return true;
        }
        HttpMethod method = request.getMethod();
        return !(HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method) || HttpMethod.OPTIONS.equals(method));
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
