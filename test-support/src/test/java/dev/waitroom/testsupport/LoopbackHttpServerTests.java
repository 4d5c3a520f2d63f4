package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class LoopbackHttpServerTests {

    private final TestHttpClient http = TestHttpClient.create(Duration.ofSeconds(20));

    @Test
    void answersAsManyRequestsAtOnceAsItHasThreads() throws Exception {
        // each answer waits for the other: only two requests handled together get past the barrier
        CyclicBarrier together = new CyclicBarrier(2);
        try (LoopbackHttpServer server = LoopbackHttpServer.start(
                exchange -> {
                    try (exchange) {
                        together.await(10, TimeUnit.SECONDS);
                        StubHttpAnswers.json(exchange, 200, "{}".getBytes(StandardCharsets.UTF_8));
                    } catch (Exception e) {
                        throw new IOException(e);
                    }
                },
                2)) {
            assertThat(AllAtOnce.call(
                            2,
                            () -> http.send("GET", server.uri().resolve("/any/path"), null)
                                    .statusCode()))
                    .containsExactly(200, 200);
        }
    }
}
