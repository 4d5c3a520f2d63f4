package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import dev.waitroom.gateway.GatewayApplication;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayTestInitializer;
import dev.waitroom.gateway.testing.QueueServiceProcessTest;
import dev.waitroom.gateway.testing.RedisReachableFirst;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.QueueServiceProcess;
import dev.waitroom.testsupport.RealStores;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ContextConfiguration;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * One trace from the edge to the real queue-service (a child JVM on the test's Redis), both writing JSON lines (ECS,
 * as compose and Kubernetes run them): the queue's lines for the request carry the trace id the client got as {@code
 * X-Request-Id}, every line of both parses as JSON, and no line carries the request's cookie, bearer token, account
 * header or query string.
 */
@QueueServiceProcessTest
@SpringBootTest(
        classes = GatewayApplication.class,
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"logging.structured.format.console=ecs", "logging.level.dev.waitroom.gateway.access=DEBUG"})
@ContextConfiguration(initializers = {GatewayTestInitializer.class, TracingEndToEndTests.RealQueue.class})
@ExtendWith(RedisReachableFirst.class)
class TracingEndToEndTests {

    static final JsonMapper JSON = JsonMapper.builder().build();

    static final String COOKIE_VALUE = "cookie-secret-" + UUID.randomUUID();

    static final String TOKEN = "token-secret-" + UUID.randomUUID();

    static final String ACCOUNT = "account-secret-" + UUID.randomUUID();

    static final String QUERY_VALUE = "query-secret-" + UUID.randomUUID();

    static QueueServiceProcess queue;

    /** Starts the queue-service once, writing ECS JSON with a line per request, and points the gateway at it. */
    static class RealQueue implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            synchronized (TracingEndToEndTests.class) {
                if (queue == null) {
                    queue = QueueServiceProcess.start(
                            "spring.data.redis.host=" + RealStores.redisHost(),
                            "spring.data.redis.port=" + RealStores.redisPort(),
                            StubUpstreams.GATEWAY.callerProperty(),
                            "logging.structured.format.console=ecs",
                            // a line per request (method and path; the query string is never sent to it here)
                            "logging.level.org.springframework.web.servlet.DispatcherServlet=DEBUG");
                }
            }
            TestPropertyValues.of(
                            "waitroom.services.queue-url=" + queue.baseUrl(),
                            "waitroom.security.ticket-key=" + queue.ticketKey())
                    .applyTo(context);
        }
    }

    @AfterAll
    static void stopQueue() {
        if (queue != null) {
            queue.close();
            queue = null;
        }
    }

    @LocalServerPort
    int port;

    /**
     * The gateway's access lines through its console encoder in JSON mode, as WAITROOM_LOG_FORMAT=ecs sets it up: Boot
     * configures logging once per JVM, so a test context of its own cannot switch the format of a running one.
     */
    final ByteArrayOutputStream gatewayOut = new ByteArrayOutputStream();

    OutputStreamAppender<ILoggingEvent> appender;

    @BeforeEach
    void jsonAccessLines() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        ConsoleEncoder encoder = new ConsoleEncoder();
        encoder.setContext(logging);
        encoder.setFormat("ecs");
        encoder.setCharset(StandardCharsets.UTF_8);
        encoder.start();
        appender = new OutputStreamAppender<>();
        appender.setContext(logging);
        appender.setEncoder(encoder);
        appender.setOutputStream(gatewayOut);
        appender.start();
        Logger access = logging.getLogger("dev.waitroom.gateway.access");
        access.setLevel(Level.DEBUG);
        access.addAppender(appender);
    }

    @AfterEach
    void stopJsonAccessLines() {
        LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
        logging.getLogger("dev.waitroom.gateway.access").detachAppender(appender);
        appender.stop();
    }

    String gatewayLog() {
        synchronized (gatewayOut) {
            return gatewayOut.toString(StandardCharsets.UTF_8);
        }
    }

    @Test
    void theQueueServiceLogsTheTraceTheClientSeesAsItsRequestId() {
        String event = "e2e-" + UUID.randomUUID().toString().substring(0, 12);
        Browser.Reply reply = new Browser(port)
                .get(
                        "/events/" + event + "/status",
                        "traceparent",
                        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                        "Cookie",
                        "wr_vid=" + COOKIE_VALUE,
                        "Authorization",
                        "Bearer " + TOKEN,
                        "X-Waitroom-Account",
                        ACCOUNT);
        String traceId = reply.header("X-Request-Id").orElseThrow();
        assertThat(traceId).matches("[0-9a-f]{32}").isNotEqualTo("4bf92f3577b34da6a3ce929d0e0e4736");

        List<JsonNode> queueLines = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> jsonLines(queueLog()),
                        lines -> lines.stream().anyMatch(line -> traceId.equals(field(line, "trace.id"))));
        JsonNode line = queueLines.stream()
                .filter(l -> traceId.equals(field(l, "trace.id")))
                .findFirst()
                .orElseThrow();
        assertThat(field(line, "span.id")).matches("[0-9a-f]{16}");
        assertThat(field(line, "requestId")).isEqualTo(traceId);

        // the access log is written through an asynchronous appender
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(jsonLines(gatewayLog()))
                        .as("the gateway's access line for the request, in JSON")
                        .anySatisfy(l -> {
                            assertThat(field(l, "trace.id")).isEqualTo(traceId);
                            assertThat(field(l, "span.id")).matches("[0-9a-f]{16}");
                        }));
        assertNoPersonalData(queueLog());
    }

    @Test
    void jsonLinesCarryNoCookieTokenAccountOrQueryString() {
        String event = "e2e-" + UUID.randomUUID().toString().substring(0, 12);
        Browser browser = new Browser(port);
        for (Browser.Reply reply : List.of(
                browser.get(
                        "/events/" + event + "/status?email=" + QUERY_VALUE,
                        "Cookie",
                        "wr_vid=" + COOKIE_VALUE,
                        "Authorization",
                        "Bearer " + TOKEN,
                        "X-Waitroom-Account",
                        ACCOUNT),
                browser.post(
                        "/events/" + event + "/queue?email=" + QUERY_VALUE,
                        "{}",
                        "Cookie",
                        "wr_vid=" + COOKIE_VALUE,
                        "Authorization",
                        "Bearer " + TOKEN,
                        "X-Waitroom-Account",
                        ACCOUNT))) {
            assertThat(reply.header("X-Request-Id")).isPresent();
        }
        // both access lines (the access log is written through an asynchronous appender)
        await().atMost(Duration.ofSeconds(30))
                .untilAsserted(() -> assertThat(jsonLines(gatewayLog()))
                        .as("the gateway's access lines, in JSON")
                        .filteredOn(l -> "dev.waitroom.gateway.access".equals(field(l, "log.logger")))
                        .anySatisfy(l -> assertThat(field(l, "message")).startsWith("GET /events/" + event))
                        .anySatisfy(l -> assertThat(field(l, "message")).startsWith("POST /events/" + event)));
        assertNoPersonalData(gatewayLog());
    }

    static void assertNoPersonalData(String log) {
        assertThat(log)
                .doesNotContain(COOKIE_VALUE)
                .doesNotContain(TOKEN)
                .doesNotContain(ACCOUNT)
                .doesNotContain(QUERY_VALUE);
    }

    static String queueLog() {
        try {
            return Files.readString(queue.log());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every line that starts as a JSON object must parse as one; the rest (a JVM warning, a banner) is skipped. */
    static List<JsonNode> jsonLines(String log) {
        return log.lines()
                .map(String::strip)
                .filter(l -> l.startsWith("{"))
                .map(JSON::readTree)
                .toList();
    }

    /** An ECS field by dotted name, flat ({@code "trace.id"}) or nested ({@code "trace": {"id"}}). */
    static String field(JsonNode line, String dotted) {
        JsonNode flat = line.get(dotted);
        if (flat != null) {
            return flat.asString();
        }
        JsonNode node = line;
        for (String part : dotted.split("\\.")) {
            node = node.path(part);
        }
        return node.isMissingNode() ? null : node.asString();
    }
}
