package dev.waitroom.gateway.guard;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.RecordedRequest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * A body without a declared length (HTTP/1.1 chunked) is counted as it arrives: past {@value
 * BodyLimitWebFilter#MAX_BODY_BYTES} bytes it is 413 body-too-large as a problem and no byte of it reaches an
 * upstream; within the limit it reaches the upstream whole, now with its length declared.
 */
@GatewayIntegrationTest
class ChunkedBodyLimitTests {

    static final int LIMIT = BodyLimitWebFilter.MAX_BODY_BYTES;

    @LocalServerPort
    int port;

    final StubUpstreams upstreams = StubUpstreams.get();

    final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();

    @Test
    void aChunkedBodyOverTheLimitIsAProblemAndReachesNoUpstream() throws Exception {
        String marker = UUID.randomUUID().toString();
        byte[] body = webhookBody(marker, LIMIT + 1);
        HttpResponse<String> answer = client.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhooks/payments"))
                        .timeout(Duration.ofSeconds(10))
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).as(answer.body()).isEqualTo(413);
        assertThat(answer.headers().firstValue("Content-Type"))
                .hasValueSatisfying(type -> assertThat(type).startsWith("application/problem+json"));
        assertThat(answer.body()).contains("\"type\":\"https://waitroom.dev/problems/body-too-large\"");
        assertThat(upstreams.booking.received(r -> r.body().contains(marker))).isEmpty();
    }

    @Test
    void aRawChunkedStreamPastTheLimitIsStoppedThereWithAProblem() throws IOException {
        String event = "chunked-" + UUID.randomUUID().toString().substring(0, 8);
        upstreams.queue.event(event);
        long before = upstreams.queue.countReceived("/events/" + event + "/queue");
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events/" + event + "/queue HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                            + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            // 8 KB chunks up to one past the limit, without the closing chunk: the gateway must not wait for the end
            byte[] chunk = "a".repeat(8 * 1024).getBytes(StandardCharsets.US_ASCII);
            for (int sent = 0; sent <= LIMIT; sent += chunk.length) {
                out.write((Integer.toHexString(chunk.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(chunk);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
            out.flush();
            String response = readHead(socket.getInputStream());
            assertThat(response).startsWith("HTTP/1.1 413");
            assertThat(response.toLowerCase()).contains("content-type: application/problem+json");
        }
        assertThat(upstreams.queue.countReceived("/events/" + event + "/queue")).isEqualTo(before);
    }

    @Test
    void aChunkedBodyWithinTheLimitReachesTheUpstreamWholeWithItsLength() throws Exception {
        for (int size : List.of(0, 100, 2000, LIMIT)) {
            String marker = UUID.randomUUID().toString();
            byte[] body = size == 0 ? new byte[0] : webhookBody(marker, size);
            HttpResponse<String> answer = client.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/webhooks/payments"))
                            .timeout(Duration.ofSeconds(10))
                            .header("Content-Type", "application/json")
                            .header("X-Payment-Signature", "sha256=" + marker)
                            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(body)))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(200);
            RecordedRequest received = upstreams
                    .booking
                    .received(r -> r.header("X-Payment-Signature").orElse("").equals("sha256=" + marker))
                    .get(0);
            assertThat(received.body()).isEqualTo(new String(body, StandardCharsets.UTF_8));
            assertThat(received.header("Content-Length")).contains(String.valueOf(size));
            assertThat(received.header("Transfer-Encoding")).isEmpty();
        }
    }

    /** A JSON body of exactly {@code size} bytes carrying {@code marker}. */
    static byte[] webhookBody(String marker, int size) {
        String head = "{\"webhookId\":\"" + marker + "\",\"padding\":\"";
        String tail = "\"}";
        return (head + "p".repeat(size - head.length() - tail.length()) + tail).getBytes(StandardCharsets.UTF_8);
    }

    /** The status line and headers of the answer. */
    static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        int c;
        while ((c = in.read()) != -1) {
            head.append((char) c);
            if (head.length() >= 4 && head.substring(head.length() - 4).equals("\r\n\r\n")) {
                break;
            }
        }
        return head.toString();
    }
}
