package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestHttpClientTests {

    private final TestHttpClient http = TestHttpClient.create(Duration.ofSeconds(10));
    // answers what it was sent: method, Content-Type, one header and the body; an empty 404 for /missing
    private final LoopbackHttpServer server = LoopbackHttpServer.start(exchange -> {
        try (exchange) {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            String echo = exchange.getRequestMethod() + " "
                    + exchange.getRequestHeaders().getFirst("Content-Type") + " "
                    + exchange.getRequestHeaders().getFirst("X-Test") + " " + body;
            boolean missing = exchange.getRequestURI().getPath().equals("/missing");
            StubHttpAnswers.json(exchange, missing ? 404 : 200, (missing ? "" : echo).getBytes(StandardCharsets.UTF_8));
        }
    });
    private final URI base = server.uri();

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void sendsAJsonBodyWithItsContentTypeAndTheHeaderPairs() {
        HttpResponse<String> answer = http.send("PUT", base.resolve("/echo"), "{\"a\":1}", "X-Test", "yes");

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).isEqualTo("PUT application/json yes {\"a\":1}");
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/json");
    }

    @Test
    void sendsNoBodyAndNoContentTypeWithoutJson() {
        assertThat(http.send("DELETE", base.resolve("/echo"), null).body()).isEqualTo("DELETE null null ");
    }

    @Test
    void anEmptyStubAnswerHasNoBodyAndNoContentType() {
        HttpResponse<String> answer = http.send("GET", base.resolve("/missing"), null);

        assertThat(answer.statusCode()).isEqualTo(404);
        assertThat(answer.body()).isEmpty();
        assertThat(answer.headers().firstValue("Content-Type")).isEmpty();
    }

    @Test
    void anUnreachableServerIsAnUncheckedFailure() {
        server.close();

        assertThatThrownBy(() -> http.send("GET", base.resolve("/echo"), null))
                .isInstanceOf(UncheckedIOException.class);
    }
}
