package dev.waitroom.gateway.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ResponseStatusException;
import reactor.netty.http.client.PrematureCloseException;

class ProblemWebExceptionHandlerTests {

    final ProblemWebExceptionHandler handler = new ProblemWebExceptionHandler();

    MockServerWebExchange handle(String method, String path, Throwable error) {
        MockServerWebExchange exchange = MockServerWebExchange.from(
                MockServerHttpRequest.method(org.springframework.http.HttpMethod.valueOf(method), path));
        handler.handle(exchange, error).block();
        return exchange;
    }

    @Test
    void unreachableCoordinatorMakesAClaimA503AdmissionProblem() {
        MockServerWebExchange exchange = handle(
                "POST",
                "/events/e/admission/claim",
                new IllegalStateException("connect", new ConnectException("Connection refused")));
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getHeaders().getContentType()).isEqualTo(MediaType.APPLICATION_PROBLEM_JSON);
        assertThat(exchange.getResponse().getBodyAsString().block())
                .contains("https://waitroom.dev/problems/admission-unavailable")
                .contains("Your place is kept");
        assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("5");
    }

    @Test
    void aCoordinatorThatDiesWithTheClaimInFlightMakesA503AdmissionProblem() {
        // the connection closed after the request was sent, before any answer (RegionsFaultTests saw a 500 here)
        MockServerWebExchange exchange = handle(
                "POST",
                "/events/e/admission/claim",
                new IllegalStateException("forward", PrematureCloseException.TEST_EXCEPTION));
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getBodyAsString().block()).contains("admission-unavailable");
        assertThat(exchange.getResponse().getHeaders().getFirst("Retry-After")).isEqualTo("5");
    }

    @Test
    void anUpstreamConnectionResetUnderTheRequestIsA503NotAnInternalError() {
        // the chaos run (seed 31) reset the queue-service's connections at its proxy: status polls, joins and leaves
        // were answered 500 internal-error with "Connection reset by peer" in the gateway's log
        MockServerWebExchange status = handle(
                "GET",
                "/events/e/queue/status",
                new IllegalStateException("forward", new java.net.SocketException("Connection reset by peer")));
        assertThat(status.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(status.getResponse().getBodyAsString().block()).contains("upstream-unavailable");
        MockServerWebExchange claim = handle(
                "POST",
                "/events/e/admission/claim",
                new java.io.IOException("recvAddress(..) failed: Connection reset"));
        assertThat(claim.getResponse().getBodyAsString().block()).contains("admission-unavailable");
    }

    @Test
    void hungCoordinatorMakesAClaimA503AdmissionProblem() {
        MockServerWebExchange exchange = handle(
                "POST",
                "/events/e/admission/claim",
                new ResponseStatusException(HttpStatus.GATEWAY_TIMEOUT, "Response took longer than timeout"));
        assertThat(exchange.getResponse().getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(exchange.getResponse().getBodyAsString().block()).contains("admission-unavailable");
    }

    @Test
    void otherUnreachableUpstreamsAre503AndTimeouts504() {
        assertThat(handle("GET", "/events/e/shop/seats", new ConnectException("refused"))
                        .getResponse()
                        .getBodyAsString()
                        .block())
                .contains("upstream-unavailable");
        MockServerWebExchange timeout = handle("GET", "/events/e/queue/status", new TimeoutException());
        assertThat(timeout.getResponse().getStatusCode()).isEqualTo(HttpStatus.GATEWAY_TIMEOUT);
    }

    @Test
    void unknownRouteAndBugsNeverLeakDetails() {
        MockServerWebExchange notFound = handle("GET", "/x", new ResponseStatusException(HttpStatus.NOT_FOUND));
        assertThat(notFound.getResponse().getBodyAsString().block()).contains("problems/not-found");
        MockServerWebExchange bug = handle("GET", "/x", new NullPointerException("secret internals"));
        assertThat(bug.getResponse().getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(bug.getResponse().getBodyAsString().block()).doesNotContain("secret internals");
    }
}
