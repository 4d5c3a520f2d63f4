package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
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

    RecordedRequest forwarded(String event) {
        return upstreams.queue.lastReceived("/events/" + event + "/status").orElseThrow();
    }

    static String traceIdOf(RecordedRequest request) {
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
        RecordedRequest upstream = forwarded(event);
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
        RecordedRequest upstream = forwarded(event);
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
        RecordedRequest upstream = forwarded(event);
        assertThat(upstream.header("X-Request-Id")).contains("load-test-000042");
        assertThat(traceIdOf(upstream)).matches("[0-9a-f]{32}");
    }

    @Test
    void theSnapshotFetchCarriesATraceOfItsOwn() {
        String event = newEvent();
        Browser browser = new Browser(port);
        // a shop request asks for the event's snapshot (generation, mode); the first one is fetched from the queue
        Browser.Reply shop = browser.get("/events/" + event + "/shop/seats");
        assertThat(shop.status()).as(shop.toString()).isEqualTo(401);

        RecordedRequest fetch = upstreams
                .queue
                .lastReceived("/internal/events/" + event + "/snapshot")
                .orElseThrow();
        String traceId = traceIdOf(fetch);
        assertThat(traceId).isNotEqualTo("0".repeat(32));
        assertThat(fetch.header("X-Waitroom-Internal")).contains(StubUpstreams.GATEWAY.credential());
        // one fetch serves every poll and shopper of the event for a while: it is no single request's trace
        assertThat(traceId).isNotEqualTo(shop.header("X-Request-Id").orElseThrow());
    }

    @Test
    void anEdgeAnswerHasARequestIdInTheTraceIdFormatWithoutATrace() {
        String event = newEvent();
        upstreams.queue.event(event).admissionRate(1.0).addWaiting(200);
        Browser browser = new Browser(port);
        assertThat(browser.post("/events/" + event + "/queue", "{}").status()).isEqualTo(201);
        String status = "/events/" + event + "/queue/status";
        int statusCalls = upstreams.queue.event(event).statusCalls();

        Set<String> ids = new HashSet<>();
        await().atMost(Duration.ofSeconds(20))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    Browser.Reply reply = browser.get(status);
                    assertThat(reply.header("X-Waitroom-Status-Source")).contains("edge");
                    ids.add(reply.header("X-Request-Id").orElseThrow());
                });
        for (int i = 0; i < 3; i++) {
            Browser.Reply reply = browser.get(status);
            assertThat(reply.header("X-Waitroom-Status-Source")).contains("edge");
            ids.add(reply.header("X-Request-Id").orElseThrow());
        }
        assertThat(ids)
                .hasSize(4)
                .allSatisfy(id -> assertThat(id).matches("[0-9a-f]{32}").isNotEqualTo("0".repeat(32)));
        Browser.Reply labelled = browser.get(status, "X-Request-Id", "load-test-000043");
        assertThat(labelled.header("X-Waitroom-Status-Source")).contains("edge");
        assertThat(labelled.header("X-Request-Id")).contains("load-test-000043");
        Browser.Reply malformed = browser.get(status, "X-Request-Id", "bad id");
        assertThat(malformed.header("X-Request-Id"))
                .hasValueSatisfying(id -> assertThat(id).matches("[0-9a-f]{32}"));
        // no traceparent went anywhere for them: the edge answered alone
        assertThat(upstreams.queue.event(event).statusCalls()).isEqualTo(statusCalls);
    }
}
