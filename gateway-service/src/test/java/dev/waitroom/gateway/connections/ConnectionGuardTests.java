package dev.waitroom.gateway.connections;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

/**
 * Slow-loris through the real gateway over raw sockets (issue #28): a body's first chunk then silence, headers
 * trickled a byte at a time, and more connections from one address than it may hold are each closed by the gateway;
 * a client that keeps pace is served on one kept-alive connection. Loopback is not a trusted proxy here, so this test's
 * own address is the client that is capped.
 */
@GatewayIntegrationTest
@TestPropertySource(
        properties = {
            "waitroom.gateway.connections.header-timeout=700ms",
            "waitroom.gateway.connections.read-timeout=700ms",
            "waitroom.gateway.connections.request-timeout=3s",
            "waitroom.gateway.connections.idle-timeout=5s",
            "waitroom.gateway.connections.max-per-address=4",
            "waitroom.gateway.client-address.trusted-proxies=203.0.113.1/32"
        })
class ConnectionGuardTests {

    /** Far longer than any timeout above: a read still blocked this long means the gateway held the connection. */
    private static final int GIVE_UP_MILLIS = 15_000;

    @LocalServerPort
    int port;

    @Test
    void aBodysFirstChunkFollowedBySilenceLosesItsConnection() throws IOException {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events/slow-body/queue HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"a\":\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readUntilClosed(socket))
                    .as(
                            "the gateway closed the connection (an answer before closing is allowed, no body was forwarded)")
                    .doesNotContain("201");
        }
    }

    @Test
    void aBodyDrippedFasterThanTheReadTimeoutButLongerThanTheRequestTimeoutLosesItsConnection() throws Exception {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events/drip-body/queue HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Transfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            boolean closed = false;
            long started = System.nanoTime();
            // a one-byte chunk every 300 ms: never 700 ms without a read, the whole body would take 12 s
            for (int i = 0; i < 40 && !closed; i++) {
                try {
                    out.write("1\r\n \r\n".getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                } catch (IOException reset) {
                    closed = true;
                }
                Thread.sleep(300);
                closed |= closedWithin(socket, 1);
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(closed).as("closed before the body was complete").isTrue();
            assertThat(millis)
                    .as("after the 3 s request timeout, well before the drip ended")
                    .isBetween(2_500L, 8_000L);
        }
    }

    @Test
    void aClientThatPostsAWholeBodyIsAnsweredAndKeepsItsConnection() throws Exception {
        try (Socket socket = open()) {
            for (int i = 0; i < 2; i++) {
                OutputStream out = socket.getOutputStream();
                out.write(("POST /events/nope/queue HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                                + "Content-Length: 2\r\n\r\n{}")
                        .getBytes(StandardCharsets.US_ASCII));
                out.flush();
                assertThat(readAnswer(socket))
                        .as("answer %d on one connection", i + 1)
                        .startsWith("HTTP/1.1 ");
                // within the header deadline each answer re-arms; the whole body came with the headers, so no body
                // deadline was armed to close the connection meanwhile
                Thread.sleep(500);
            }
        }
    }

    @Test
    void headersTrickledAByteAtATimeLoseTheirConnection() throws Exception {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            byte[] request = ("GET /events/trickle/queue/status HTTP/1.1\r\nHost: localhost\r\nX-Padding: "
                            + "a".repeat(200) + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
            boolean closed = false;
            long started = System.nanoTime();
            // one byte every 50 ms never lets the connection go idle; the whole request would take about 12 s
            for (int i = 0; i < request.length && !closed; i++) {
                try {
                    out.write(request[i]);
                    out.flush();
                } catch (IOException reset) {
                    closed = true;
                }
                Thread.sleep(50);
                closed |= closedWithin(socket, 1);
            }
            long millis = (System.nanoTime() - started) / 1_000_000;
            assertThat(closed).as("closed before the headers were complete").isTrue();
            assertThat(millis).as("well before the trickle ended").isLessThan(8_000);
        }
    }

    @Test
    void anAddressPastItsConnectionCapIsClosedAtOnceAndServedAgainWhenOneCloses() throws IOException {
        List<Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 4; i++) {
                Socket socket = open();
                held.add(socket);
                assertThat(get(socket, "/actuator/health"))
                        .as("connection %d of 4", i + 1)
                        .startsWith("HTTP/1.1 200");
            }
            try (Socket fifth = open()) {
                assertThat(readUntilClosed(fifth))
                        .as("the fifth is closed unanswered")
                        .isEmpty();
            }
            held.remove(0).close();
            // the gateway counts a closed connection down when it sees the close: a new one may be refused until then
            String answer = null;
            for (int attempt = 0; attempt < 100 && answer == null; attempt++) {
                try (Socket again = open()) {
                    answer = get(again, "/actuator/health");
                } catch (IOException refusedStill) {
                    Thread.onSpinWait();
                }
            }
            assertThat(answer).as("served again once one of the four closed").startsWith("HTTP/1.1 200");
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void aClientThatKeepsPaceIsServedOnOneKeptAliveConnection() throws Exception {
        try (Socket socket = open()) {
            for (int i = 0; i < 3; i++) {
                assertThat(get(socket, "/actuator/health")).startsWith("HTTP/1.1 200");
                // each answer re-arms the header deadline: a pause shorter than it keeps the connection
                Thread.sleep(300);
            }
        }
    }

    /**
     * Reactor Netty 1.3.6 stopped reading a kept-alive connection when a request that had waited behind another (its
     * head and its body's end queued) was answered at once: the queue drained its body's end and nothing asked for the
     * next read, so the next request sat unread until the client gave up (reactor/reactor-netty#4361; the root pom
     * takes 1.3.8). Browsers met it when a request came while the previous answer was still finishing; here the two
     * arrive in one write: a join the gateway forwards (answered later) and an ops call it refuses at the edge.
     */
    @Test
    void aRequestAnsweredAtOnceBehindAnotherLeavesTheConnectionReading() throws Exception {
        try (Socket socket = open()) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /events/nope/queue HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                            + "Content-Length: 2\r\n\r\n{}"
                            + "POST /admin/events/x/pause HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readAnswer(socket)).as("the forwarded join").startsWith("HTTP/1.1 ");
            assertThat(readAnswer(socket))
                    .as("the ops call refused at the edge")
                    .startsWith("HTTP/1.1 401");
            assertThat(get(socket, "/actuator/health"))
                    .as("the next request on the connection is read and answered")
                    .startsWith("HTTP/1.1 200");
        }
    }

    private Socket open() throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(GIVE_UP_MILLIS);
        return socket;
    }

    /** One GET on a kept-alive connection; the answer's head and its (small, declared-length) body. */
    private static String get(Socket socket, String path) throws IOException {
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return readAnswer(socket);
    }

    /** The next answer on a kept-alive connection: its head and its (small, declared-length) body. */
    private static String readAnswer(Socket socket) throws IOException {
        InputStream in = socket.getInputStream();
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head.size() + " bytes");
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.US_ASCII);
        int length = 0;
        for (String line : text.split("\r\n")) {
            if (line.regionMatches(true, 0, "content-length:", 0, 15)) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        byte[] body = in.readNBytes(length);
        return text + new String(body, StandardCharsets.UTF_8);
    }

    /** Everything the gateway sends until it closes the connection; fails if it is still open after the give-up time. */
    private static String readUntilClosed(Socket socket) throws IOException {
        ByteArrayOutputStream seen = new ByteArrayOutputStream();
        try {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[4096];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                seen.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException held) {
            throw new AssertionError("the gateway held the connection for " + GIVE_UP_MILLIS + " ms", held);
        } catch (IOException reset) {
            // a reset is a close too
        }
        return seen.toString(StandardCharsets.US_ASCII);
    }

    private static boolean closedWithin(Socket socket, int millis) throws IOException {
        int before = socket.getSoTimeout();
        socket.setSoTimeout(millis);
        try {
            return socket.getInputStream().read() < 0;
        } catch (SocketTimeoutException open) {
            return false;
        } catch (IOException reset) {
            return true;
        } finally {
            socket.setSoTimeout(before);
        }
    }
}
