package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubHttpServer;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ContextConfiguration;

/**
 * The edge starts every forwarded request's trace itself: the upstream gets a W3C {@code traceparent} whose trace id
 * the client sees as {@code X-Request-Id}; a client's own {@code traceparent} (well formed or not), {@code
 * tracestate}, {@code baggage} and B3 headers are never forwarded; a malformed {@code X-Request-Id} is replaced by the
 * trace id, a well-formed one is kept as the client's label beside the edge's own trace.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ContextConfiguration(initializers = GatewayTestInitializer.class)
class TraceHeadersTests {

    static final String TRACEPARENT = "00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]";

    static final String CLIENT_TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    final StubUpstreams upstreams = StubUpstreams.get();

    @LocalServerPort
    int port;

    String newEvent() {
        String event = "tr-" + UUID.randomUUID().toString().substring(0, 12);
        upstreams.queue.event(event);
        return event;
    }

    StubHttpServer.Recorded forwarded(String event) {
        return upstreams.queue.lastReceived("/events/" + event + "/status").orElseThrow();
    }

    static String traceIdOf(StubHttpServer.Recorded request) {
        String traceparent = request.header("traceparent").orElseThrow();
        assertThat(traceparent).matches(TRACEPARENT);
        return traceparent.substring(3, 35);
    }

    @Test
    void theUpstreamGetsTheEdgesTraceAndTheClientSeesItsIdAsTheRequestId() {
        String event = newEvent();
        Browser.Reply reply = new Browser(port).get("/events/" + event + "/status");

        String requestId = reply.header("X-Request-Id").orElseThrow();
        assertThat(requestId).matches("[0-9a-f]{32}");
        StubHttpServer.Recorded upstream = forwarded(event);
        assertThat(traceIdOf(upstream)).isEqualTo(requestId);
        assertThat(upstream.header("X-Request-Id")).contains(requestId);

        String again = new Browser(port)
                .get("/events/" + event + "/status")
                .header("X-Request-Id")
                .orElseThrow();
        assertThat(again).as("every request a trace of its own").isNotEqualTo(requestId);
        assertThat(traceIdOf(forwarded(event))).isEqualTo(again);
    }

    @Test
    void aClientsTraceContextIsNeitherContinuedNorForwarded() {
        String event = newEvent();
        Browser.Reply reply = new Browser(port)
                .get(
                        "/events/" + event + "/status",
                        "traceparent",
                        "00-" + CLIENT_TRACE + "-00f067aa0ba902b7-01",
                        "tracestate",
                        "vendor=client-chosen",
                        "baggage",
                        "visitor=someone",
                        "b3",
                        CLIENT_TRACE + "-00f067aa0ba902b7-1",
                        "X-B3-TraceId",
                        CLIENT_TRACE);

        String requestId = reply.header("X-Request-Id").orElseThrow();
        assertThat(requestId).matches("[0-9a-f]{32}").isNotEqualTo(CLIENT_TRACE);
        StubHttpServer.Recorded upstream = forwarded(event);
        assertThat(traceIdOf(upstream)).isEqualTo(requestId);
        assertThat(upstream.header("tracestate")).isEmpty();
        assertThat(upstream.header("baggage")).isEmpty();
        assertThat(upstream.header("b3")).isEmpty();
        assertThat(upstream.header("X-B3-TraceId")).isEmpty();
    }

    @Test
    void malformedTraceContextAndRequestIdsAreReplaced() {
        String event = newEvent();
        for (String[] headers : new String[][] {
            {"traceparent", "garbage", "X-Request-Id", "bad id with spaces"},
            {"traceparent", "00-" + "0".repeat(32) + "-" + "0".repeat(16) + "-01", "X-Request-Id", "short"},
            {"traceparent", "ff-" + CLIENT_TRACE + "-00f067aa0ba902b7-01", "X-Request-Id", "x".repeat(101)}
        }) {
            Browser.Reply reply = new Browser(port).get("/events/" + event + "/status", headers);
            String requestId = reply.header("X-Request-Id").orElseThrow();
            assertThat(requestId).as(String.join(" ", headers)).matches("[0-9a-f]{32}");
            assertThat(requestId).isNotEqualTo(CLIENT_TRACE).isNotEqualTo("0".repeat(32));
            assertThat(traceIdOf(forwarded(event))).isEqualTo(requestId);
        }
    }

    @Test
    void aWellFormedClientRequestIdIsKeptBesideTheEdgesOwnTrace() {
        String event = newEvent();
        Browser.Reply reply = new Browser(port).get("/events/" + event + "/status", "X-Request-Id", "load-test-000042");

        assertThat(reply.header("X-Request-Id")).contains("load-test-000042");
        StubHttpServer.Recorded upstream = forwarded(event);
        assertThat(upstream.header("X-Request-Id")).contains("load-test-000042");
        assertThat(traceIdOf(upstream)).matches("[0-9a-f]{32}");
    }
}
