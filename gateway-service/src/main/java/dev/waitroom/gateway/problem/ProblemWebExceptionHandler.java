package dev.waitroom.gateway.problem;

import dev.waitroom.contract.Headers;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.gateway.correlation.RequestIdWebFilter;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatusCode;
import org.springframework.stereotype.Component;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebExceptionHandler;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

/**
 * Turns every error that reaches the web layer (unknown route, upstream down, bugs) into
 * problem+json. Ordered before Spring Boot's default handler, which writes a different shape.
 */
@Component
@Order(-2)
class ProblemWebExceptionHandler implements WebExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemWebExceptionHandler.class);

    @Override
    public Mono<Void> handle(ServerWebExchange exchange, Throwable ex) {
        if (exchange.getResponse().isCommitted()) {
            return Mono.error(ex);
        }
        exchange.getResponse().getHeaders().clear();
        // the headers an upstream or a filter set go, the request id the client is told to quote stays
        String requestId = RequestIdWebFilter.of(exchange);
        exchange.getResponse()
                .getHeaders()
                .set(
                        Headers.REQUEST_ID,
                        "-".equals(requestId) ? RequestIdWebFilter.requestIdOf(exchange.getRequest()) : requestId);
        if (ex instanceof ResponseStatusException rse) {
            return forStatus(exchange, rse.getStatusCode(), rse);
        }
        // refused, unknown, or a connection the upstream closed before answering (it died mid-request), or one reset
        // under the request: Netty's epoll "Connection reset by peer" (Errors.NativeIoException) and the JDK's
        // SocketException are IOExceptions, and a request's only I/O that can fail here is the one with its upstream
        // (the chaos run, seed 31, saw 2,312 of them answered 500 internal-error: docs/operating/chaos.md)
        if (causedBy(ex, ConnectException.class)
                || causedBy(ex, UnknownHostException.class)
                || causedBy(ex, PrematureCloseException.class)
                || causedBy(ex, java.io.IOException.class)) {
            return upstreamUnavailable(exchange);
        }
        if (causedBy(ex, TimeoutException.class)) {
            return upstreamTimeout(exchange);
        }
        RequestIdWebFilter.withCorrelation(
                exchange,
                () -> log.error(
                        "Unexpected error on {} {}",
                        exchange.getRequest().getMethod(),
                        exchange.getRequest().getPath(),
                        ex));
        return ProblemResponses.write(exchange, ProblemType.INTERNAL_ERROR, "Unexpected error. Please retry shortly.");
    }

    private Mono<Void> forStatus(ServerWebExchange exchange, HttpStatusCode status, ResponseStatusException ex) {
        return switch (status.value()) {
            case 404 -> ProblemResponses.write(exchange, ProblemType.NOT_FOUND, "There is nothing at this address.");
            case 405 ->
                ProblemResponses.write(exchange, ProblemType.METHOD_NOT_ALLOWED, "This method is not supported here.");
            case 413 -> ProblemResponses.write(exchange, ProblemType.BODY_TOO_LARGE, "The request body is too large.");
            case 503, 502 -> upstreamUnavailable(exchange);
            case 504 -> upstreamTimeout(exchange);
            default -> {
                if (status.is4xxClientError()) {
                    yield ProblemResponses.write(
                            exchange, ProblemType.MALFORMED_REQUEST, "The request was not understood.");
                }
                RequestIdWebFilter.withCorrelation(
                        exchange,
                        () -> log.error(
                                "Error status {} on {} {}",
                                status,
                                exchange.getRequest().getMethod(),
                                exchange.getRequest().getPath(),
                                ex));
                yield ProblemResponses.write(
                        exchange, ProblemType.INTERNAL_ERROR, "Unexpected error. Please retry shortly.");
            }
        };
    }

    private Mono<Void> upstreamTimeout(ServerWebExchange exchange) {
        if (isClaim(exchange)) {
            return upstreamUnavailable(exchange);
        }
        return ProblemResponses.write(
                exchange,
                ProblemType.UPSTREAM_TIMEOUT,
                "The service behind the gateway did not answer in time. Please retry shortly.");
    }

    /** A claim the coordinator cannot answer issues no admission: the visitor keeps the place and retries. */
    private static boolean isClaim(ServerWebExchange exchange) {
        return exchange.getRequest().getPath().value().endsWith("/admission/claim");
    }

    private Mono<Void> upstreamUnavailable(ServerWebExchange exchange) {
        if (isClaim(exchange)) {
            return ProblemResponses.write(
                    exchange,
                    ProblemType.ADMISSION_UNAVAILABLE,
                    "Admission is paused because a system behind the waiting room is unavailable. "
                            + "Your place is kept; the page keeps trying.");
        }
        return ProblemResponses.write(
                exchange,
                ProblemType.UPSTREAM_UNAVAILABLE,
                "A service behind the gateway is unavailable. Please retry shortly.");
    }

    private static boolean causedBy(Throwable ex, Class<? extends Throwable> type) {
        for (Throwable t = ex; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
            if (t.getCause() == t) {
                break;
            }
        }
        return false;
    }
}
