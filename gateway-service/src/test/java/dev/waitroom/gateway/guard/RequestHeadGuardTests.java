package dev.waitroom.gateway.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue #28, findings 5 and 9: a request target that is not a URI was a 400 with no body (Spring's adapter refuses it
 * before any filter), and a chunked body dribbled on a poll held the connection until the read timeout. Both are now
 * answered with a problem at once, from the request's head, and the connection is closed. Requests written byte for
 * byte on a raw socket.
 */
@GatewayIntegrationTest
class RequestHeadGuardTests {

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    @Test
    void aMalformedQueryIsAProblem() throws Exception {
        String event = newEvent();
        for (String query : List.of("x=%%%", "x=%", "x=%4", "x=%zz", "a=b|c", "q=%G0")) {
            String answer = get("/events/" + event + "/status?" + query);
            assertProblem(answer, 400, "malformed-request", query);
        }
        assertThat(upstreams.queue.countReceived("/events/" + event + "/status"))
                .isZero();
    }

    @Test
    void malformedPercentEncodingInThePathIsAProblem() throws Exception {
        for (String path : List.of("/events/e1/%zz", "/events/%/status", "/things/%4", "/a|b", "/events/e1/%%")) {
            assertProblem(get(path), 400, "bad-path", path);
        }
    }

    @Test
    void wellFormedEscapesStillPass() throws Exception {
        String event = newEvent();
        String answer = get("/events/" + event + "/status?x=%41%20b&y=caf%C3%A9");
        assertThat(answer).startsWith("HTTP/1.1 200");
    }

    @Test
    void aChunkedBodyDribbledOnAPollIsRefusedAtOnceAndTheConnectionClosed() throws Exception {
        String event = newEvent();
        for (String path : List.of("/events/" + event + "/queue/status", "/events/" + event + "/status")) {
            try (RawHttp client = new RawHttp(port, 3000)) {
                client.send("GET " + path + " HTTP/1.1\nHost: 127.0.0.1\nTransfer-Encoding: chunked\n\n");
                client.chunkUnlessClosed(5); // and then nothing: a slow-loris body
                String answer = client.answer();
                assertProblem(answer, 400, "malformed-request", path);
                assertThat(answer.toLowerCase()).contains("connection: close");
                assertThat(client.closedByServer()).as(path).isTrue();
            }
        }
    }

    @Test
    void aHeadOrGetWithADeclaredBodyIsRefused() throws Exception {
        String event = newEvent();
        for (String method : List.of("GET", "HEAD", "OPTIONS")) {
            try (RawHttp client = new RawHttp(port, 3000)) {
                client.send(method + " /events/" + event + "/status HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 5\n\n");
                String answer = client.answer();
                assertThat(answer).as(method).startsWith("HTTP/1.1 400");
                assertThat(client.closedByServer()).as(method).isTrue();
            }
        }
        try (RawHttp client = new RawHttp(port, 3000)) {
            client.send("GET /events/" + event + "/status HTTP/1.1\nHost: 127.0.0.1\nContent-Length: 0\n\n");
            assertThat(client.answer()).startsWith("HTTP/1.1 200");
        }
    }

    private String newEvent() {
        String event = "head-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(event);
        return event;
    }

    private String get(String target) throws Exception {
        try (RawHttp client = new RawHttp(port, 5000)) {
            return client.send("GET " + target + " HTTP/1.1\nHost: 127.0.0.1\nConnection: close\n\n")
                    .answer();
        }
    }

    static void assertProblem(String answer, int status, String slug, String what) {
        assertThat(answer).as(what).startsWith("HTTP/1.1 " + status);
        assertThat(answer.toLowerCase()).as(what).contains("content-type: application/problem+json");
        assertThat(answer).as(what).contains("\"type\":\"https://waitroom.dev/problems/" + slug + "\"");
    }
}
