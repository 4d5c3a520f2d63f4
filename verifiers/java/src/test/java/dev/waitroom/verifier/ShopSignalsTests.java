package dev.waitroom.verifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The Java shop-signals client (docs/integration/shop-signals.md) against a real HTTP server on loopback standing in
 * for the gateway: each signal is a POST to its path with the credential as a bearer and a JSON body that survives
 * quotes and control characters; answers are read into records; refusals carry the status and the problem type; a
 * malformed URL, event id or credential is refused before anything is sent. The same client against the real gateway
 * and coordinator: deploy's ShopSignalsStackTests.
 */
class ShopSignalsTests {

    static final String CREDENTIAL = "wric_0123456789abcdef_" + "A".repeat(43);

    record Received(String method, String path, String authorization, String contentType, String body) {}

    final List<Received> received = new CopyOnWriteArrayList<>();

    HttpServer server;

    private URI gateway(Function<Received, Object[]> reply) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", exchange -> {
            Received r = new Received(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
            received.add(r);
            Object[] answer = reply.apply(r);
            byte[] body = ((String) answer[1]).getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", (String) answer[2]);
            exchange.sendResponseHeaders((Integer) answer[0], body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.stop(0);
        }
    }

    @Test
    void sendsEachSignalWithTheCredentialAndReadsTheAnswer() throws Exception {
        URI url = gateway(r -> new Object[] {
            200,
            r.path().endsWith("sold-out")
                    ? "{\"signal\":\"sold-out\",\"eventId\":\"e1\",\"category\":null,\"mode\":\"SOLD_OUT\","
                            + "\"soldOutCategories\":[\"Floor\"]}"
                    : "{\"signal\":\"x\",\"eventId\":\"e1\",\"sessionId\":\"s-1\",\"state\":\"COMPLETED\",\"live\":false}",
            "application/json"
        });
        ShopSignals signals = ShopSignals.of(url, "e1", CREDENTIAL);

        assertThat(signals.purchaseCompleted("s-1", "order \"7\"\n\\x"))
                .isEqualTo(new ShopSignals.SessionAnswer("e1", "s-1", "COMPLETED", false));
        assertThat(signals.sessionRelease("s-1").live()).isFalse();
        ShopSignals.SoldOutAnswer soldOut = signals.soldOut();
        assertThat(soldOut.mode()).isEqualTo("SOLD_OUT");
        assertThat(soldOut.soldOutCategories()).containsExactly("Floor");
        signals.soldOut("Floor");

        assertThat(received)
                .extracting(r -> r.method() + " " + r.path())
                .containsExactly(
                        "POST /events/e1/signals/purchase-completed",
                        "POST /events/e1/signals/session-release",
                        "POST /events/e1/signals/sold-out",
                        "POST /events/e1/signals/sold-out");
        assertThat(received).allSatisfy(r -> {
            assertThat(r.authorization()).isEqualTo("Bearer " + CREDENTIAL);
            assertThat(r.contentType()).startsWith("application/json");
        });
        assertThat(Json.parseObject(received.get(0).body()))
                .isEqualTo(Map.of("sessionId", "s-1", "orderId", "order \"7\"\n\\x"));
        assertThat(received.get(2).body()).isEqualTo("{}");
        assertThat(received.get(3).body()).isEqualTo("{\"category\":\"Floor\"}");
        assertThat(signals.toString()).doesNotContain(CREDENTIAL.substring(22));
    }

    @Test
    void aRefusalCarriesTheStatusAndTheProblem() throws Exception {
        URI url = gateway(r -> switch (r.path().substring(r.path().lastIndexOf('/') + 1)) {
            case "purchase-completed" ->
                new Object[] {
                    401,
                    "{\"type\":\"https://waitroom.dev/problems/integration-credential-required\",\"status\":401,"
                            + "\"detail\":\"The integration credential is unknown, revoked or wrong.\"}",
                    "application/problem+json"
                };
            case "session-release" -> new Object[] {503, "<html>bad gateway</html>", "text/html"};
            default -> new Object[] {429, "", "application/problem+json"};
        });
        ShopSignals signals = ShopSignals.of(url, "e1", CREDENTIAL);

        assertThatThrownBy(() -> signals.purchaseCompleted("s", "o"))
                .isInstanceOfSatisfying(SignalRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(401);
                    assertThat(e.problemType()).endsWith("/integration-credential-required");
                    assertThat(e.retryable()).isFalse();
                    assertThat(e.getMessage()).contains("revoked");
                });
        assertThatThrownBy(() -> signals.sessionRelease("s"))
                .isInstanceOfSatisfying(SignalRefusedException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.problemType()).isNull();
                    assertThat(e.retryable()).isTrue();
                });
        assertThatThrownBy(signals::soldOut)
                .isInstanceOfSatisfying(
                        SignalRefusedException.class,
                        e -> assertThat(e.retryable()).isTrue());
    }

    @Test
    void refusesMalformedSettingsAndSendsNothingWithoutTheIds() throws Exception {
        URI url = gateway(r -> new Object[] {200, "{}", "application/json"});
        URI good = URI.create("https://tickets.example");
        assertThatThrownBy(() -> ShopSignals.of(URI.create("ftp://tickets.example"), "e1", CREDENTIAL))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ShopSignals.of(URI.create("/relative"), "e1", CREDENTIAL))
                .isInstanceOf(IllegalArgumentException.class);
        for (String event : new String[] {"", "../admin", "a/b", "x".repeat(65)}) {
            assertThatThrownBy(() -> ShopSignals.of(good, event, CREDENTIAL))
                    .as(event)
                    .isInstanceOf(IllegalArgumentException.class);
        }
        for (String credential : new String[] {null, "abc", CREDENTIAL + "A", CREDENTIAL.toUpperCase(), "Bearer x"}) {
            assertThatThrownBy(() -> ShopSignals.of(good, "e1", credential))
                    .as(String.valueOf(credential))
                    .isInstanceOf(IllegalArgumentException.class);
        }
        ShopSignals signals = ShopSignals.of(url, "e1", CREDENTIAL);
        assertThatThrownBy(() -> signals.purchaseCompleted("", "o")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> signals.sessionRelease(null)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> signals.soldOut(null)).isInstanceOf(IllegalArgumentException.class);
        assertThat(received).isEmpty();
    }
}
