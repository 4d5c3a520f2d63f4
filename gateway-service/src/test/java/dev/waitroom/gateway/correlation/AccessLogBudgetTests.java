package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * Issue #28, finding 9: every request that is not a GET, an unrouted 404 included, was an access line at INFO, so a
 * client chose how fast the log grew. Now at most {@value RequestIdWebFilter#INFO_LINES_PER_SECOND} such lines a second,
 * and a summary line with the count of the ones dropped.
 */
@GatewayIntegrationTest
class AccessLogBudgetTests {

    static final class Recorder extends AppenderBase<ILoggingEvent> {

        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            lines.add(event.getFormattedMessage());
        }
    }

    @LocalServerPort
    int port;

    final Recorder recorder = new Recorder();

    final Logger access = (Logger) LoggerFactory.getLogger("dev.waitroom.gateway.access");

    Level level;

    @BeforeEach
    void record() {
        level = access.getLevel();
        access.setLevel(Level.INFO);
        recorder.start();
        access.addAppender(recorder);
    }

    @AfterEach
    void stopRecording() {
        access.detachAppender(recorder);
        access.setLevel(level);
    }

    @Test
    void aFloodOfPostsWritesABoundedNumberOfLines() {
        HttpClient client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5))
                .build();
        long started = System.nanoTime();
        for (int round = 0; round < 10; round++) {
            List<CompletableFuture<HttpResponse<Void>>> posts = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                posts.add(client.sendAsync(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nothing/here/" + i))
                                .timeout(Duration.ofSeconds(20))
                                .POST(HttpRequest.BodyPublishers.noBody())
                                .build(),
                        HttpResponse.BodyHandlers.discarding()));
            }
            posts.forEach(post -> assertThat(post.join().statusCode()).isEqualTo(404));
        }
        long seconds = Duration.ofNanos(System.nanoTime() - started).toSeconds() + 1;
        // a request in the next second writes the summary of the ones dropped before it
        await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> {
                    client.send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/nothing/here/last"))
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.discarding());
                    assertThat(recorder.lines).anyMatch(line -> line.contains("access lines dropped"));
                });
        long requestLines = recorder.lines.stream()
                .filter(line -> line.startsWith("POST /nothing/here/"))
                .count();
        assertThat(requestLines)
                .isLessThanOrEqualTo((seconds + 11) * RequestIdWebFilter.INFO_LINES_PER_SECOND)
                .isLessThan(1_000);
        long dropped = recorder.lines.stream()
                .filter(line -> line.contains("access lines dropped"))
                .mapToLong(line -> Long.parseLong(line.substring(0, line.indexOf(' '))))
                .sum();
        assertThat(requestLines + dropped).isGreaterThanOrEqualTo(1_000);
    }
}
