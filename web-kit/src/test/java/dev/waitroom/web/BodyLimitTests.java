package dev.waitroom.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.web.testapp.TestController;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;

/** Bodies over the limit (1 KB here) are refused with 413 however they are framed, and no handler sees more. */
@KitTest
class BodyLimitTests {

    static final int LIMIT = 1024;

    @LocalServerPort
    int port;

    TestHttp http;

    HandlerCalls calls;

    @BeforeEach
    void setUp() {
        http = TestHttp.internal(port);
        calls = new HandlerCalls();
    }

    @AfterEach
    void noHandlerWasHandedMoreThanTheLimit() {
        assertThat(TestController.LARGEST_BODY.get()).isLessThanOrEqualTo(LIMIT);
    }

    @Test
    void aDeclaredLengthOverTheLimitIsRefusedWithoutWaitingForTheBody() {
        // only the head is sent: an answer at all shows the body was never awaited
        TestHttp.Response refused = http.raw(head("POST", "/bytes", "Content-Length: 1000000"));
        assertThat(refused.assertProblem(413, "body-too-large").get("detail").asString())
                .contains("1024");
        http.post("/json", "application/json", json(LIMIT + 1)).assertProblem(413, "body-too-large");
        calls.assertNone();
    }

    @Test
    void aBodyUpToTheLimitIsServed() {
        assertThat(http.post("/bytes", "application/octet-stream", "x".repeat(LIMIT))
                        .body())
                .isEqualTo("1024");
        assertThat(http.postChunked("/bytes", "application/octet-stream", "x".repeat(LIMIT))
                        .body())
                .isEqualTo("1024");
    }

    @Test
    void aChunkedBodyOverTheLimitIsCutOffWhileItIsRead() {
        http.postChunked("/bytes", "application/octet-stream", "x".repeat(LIMIT + 1))
                .assertProblem(413, "body-too-large");
        http.postChunked("/json", "application/json", json(5 * LIMIT)).assertProblem(413, "body-too-large");
        http.postChunked("/reader", "text/plain", "x".repeat(5 * LIMIT)).assertProblem(413, "body-too-large");
        calls.assertNone();
    }

    @Test
    void manySmallChunksAddUp() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int i = 0; i < 40; i++) {
            body.writeBytes(("40\r\n" + "y".repeat(64) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        http.raw(head("POST", "/bytes", "Transfer-Encoding: chunked"), body.toByteArray())
                .assertProblem(413, "body-too-large");
        calls.assertNone();
    }

    @Test
    void aLengthThatUnderstatesTheBodyHandsOverOnlyTheDeclaredBytes() {
        // what follows the declared 5 bytes is the next request on the connection, never part of this body
        byte[] body = "12345".concat("z".repeat(4 * LIMIT)).getBytes(StandardCharsets.US_ASCII);
        TestHttp.Response served = http.raw(head("POST", "/bytes", "Content-Length: 5"), body);
        assertThat(served.status()).isEqualTo(200);
        assertThat(served.body()).isEqualTo("5");
    }

    @Test
    void aSmallLengthNextToAChunkedBodyDoesNotLiftTheLimit() {
        String chunk = "z".repeat(4 * LIMIT);
        byte[] body = (Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
        TestHttp.Response answer =
                http.raw(head("POST", "/bytes", "Content-Length: 5\nTransfer-Encoding: chunked"), body);
        assertThat(answer.status()).isIn(400, 413);
        calls.assertNone();
    }

    private static String head(String method, String path, String framing) {
        return method + " " + path + " HTTP/1.1\nHost: localhost\nConnection: close\nContent-Type: "
                + "application/octet-stream\nX-Waitroom-Internal: " + KitCredentials.GATEWAY.value() + "\n" + framing
                + "\n\n";
    }

    /** A JSON object of about {@code size} bytes. */
    private static String json(int size) {
        return "{\"pad\":\"" + "x".repeat(Math.max(0, size - 10)) + "\"}";
    }
}
