package dev.waitroom.gateway.guard;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.LoopbackHttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * Issue #28, finding 5: the gateway read every chunked body (up to 64 KiB) before forwarding it, on any path. A body
 * for a shop origin now streams through, counted on the way and cut off at the limit; a Waitroom route that takes no
 * body refuses one at once instead of waiting for it. A real origin records when the first bytes of a body reach it.
 */
@GatewayIntegrationTest
class StreamedBodyTests {

    static final int LIMIT = BodyLimitWebFilter.MAX_BODY_BYTES;

    static final StreamingOrigin ORIGIN = new StreamingOrigin();

    @DynamicPropertySource
    static void defaultOrigin(DynamicPropertyRegistry registry) {
        registry.add(
                "waitroom.gateway.default-origin", () -> ORIGIN.server.uri().toString());
    }

    @AfterAll
    static void stop() {
        ORIGIN.server.close();
    }

    @LocalServerPort
    int port;

    @Test
    void aBodyForAnOriginReachesItBeforeTheClientHasSentAllOfIt() throws Exception {
        ORIGIN.reset();
        try (RawHttp client = new RawHttp(port, 10_000)) {
            client.send("POST /upload HTTP/1.1\nHost: 127.0.0.1\nContent-Type: application/octet-stream\n"
                            + "Transfer-Encoding: chunked\n\n")
                    .chunk(4096);
            // the rest is sent only once the origin has seen the start: a gateway that buffers never gets here
            assertThat(ORIGIN.firstBytes.await(5, TimeUnit.SECONDS))
                    .as("the origin saw the first bytes while the client was still sending")
                    .isTrue();
            for (int i = 0; i < 7; i++) {
                client.chunk(8192);
            }
            client.send("0\n\n");
            String answer = client.answer();
            assertThat(answer).startsWith("HTTP/1.1 200");
            assertThat(answer).endsWith("received " + (4096 + 7 * 8192));
        }
    }

    @Test
    void aStreamedBodyPastTheLimitIsCutOffWithAProblem() throws Exception {
        ORIGIN.reset();
        try (RawHttp client = new RawHttp(port, 10_000)) {
            client.send("POST /upload HTTP/1.1\nHost: 127.0.0.1\nTransfer-Encoding: chunked\n\n");
            for (int sent = 0; sent <= LIMIT; sent += 8192) {
                client.chunk(8192);
            }
            String answer = client.answer();
            RequestHeadGuardTests.assertProblem(answer, 413, "body-too-large", "streamed past the limit");
            assertThat(client.closedByServer()).isTrue();
        }
        assertThat(ORIGIN.completed.get()).isZero();
    }

    @Test
    void aBodyDribbledOnAWaitroomRouteThatTakesNoneIsRefusedAtOnce() throws Exception {
        String event = "nobody-" + UUID.randomUUID().toString().substring(0, 8);
        StubUpstreams.get().queue.event(event);
        for (String path : new String[] {"/events/" + event + "/status", "/events/" + event, "/actuator/health"}) {
            try (RawHttp client = new RawHttp(port, 3000)) {
                client.send("POST " + path + " HTTP/1.1\nHost: 127.0.0.1\nTransfer-Encoding: chunked\n\n");
                client.chunkUnlessClosed(5); // the answer may come, and the connection close, before this chunk
                RequestHeadGuardTests.assertProblem(client.answer(), 400, "malformed-request", path);
                assertThat(client.closedByServer()).as(path).isTrue();
            }
        }
    }

    /** An origin that counts the bytes of each body as they arrive, and says when the first ones came. */
    static final class StreamingOrigin {

        final LoopbackHttpServer server = LoopbackHttpServer.start(this::handle, 4);

        volatile CountDownLatch firstBytes = new CountDownLatch(1);

        final AtomicLong completed = new AtomicLong();

        void reset() {
            firstBytes = new CountDownLatch(1);
            completed.set(0);
        }

        private void handle(HttpExchange exchange) throws IOException {
            try (exchange) {
                long total = 0;
                byte[] buffer = new byte[1024];
                try (InputStream in = exchange.getRequestBody()) {
                    for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
                        total += read;
                        firstBytes.countDown();
                    }
                }
                completed.incrementAndGet();
                byte[] body = ("received " + total).getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            }
        }
    }
}
