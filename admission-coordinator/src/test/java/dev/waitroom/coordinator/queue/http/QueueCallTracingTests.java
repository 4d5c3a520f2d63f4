package dev.waitroom.coordinator.queue.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.support.RandomSecretsInitializer;
import dev.waitroom.testsupport.RealStoresInitializer;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.ContextConfiguration;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The coordinator's queue client as the application wires it (Spring Boot's {@code RestClient.Builder}, observed)
 * carries the current trace to the queue-service as W3C {@code traceparent}, in a span of its own under the caller's,
 * and no hand-made request id: the queue-service takes the trace id as its request id.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {
            "waitroom.test.database=coordinator",
            "waitroom.coordinator.ticker-enabled=false",
            "waitroom.accounts.issuer=https://accounts.test.invalid/realms/waitroom"
        })
@ContextConfiguration(initializers = {RealStoresInitializer.class, RandomSecretsInitializer.class})
class QueueCallTracingTests {

    static final String TRACEPARENT = "00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]";

    /** Headers of every request the stand-in queue-service received, names lower-cased. */
    static final List<Map<String, List<String>>> RECEIVED = new CopyOnWriteArrayList<>();

    static final HttpServer QUEUE = start();

    static HttpServer start() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            server.createContext("/", exchange -> {
                Map<String, List<String>> headers = new java.util.TreeMap<>();
                exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(), values));
                headers.put(":path", List.of(exchange.getRequestURI().getPath()));
                RECEIVED.add(headers);
                byte[] body =
                        "{\"waiting\":3,\"offered\":0,\"active\":0,\"completed\":0,\"left\":0,\"expired\":0,\"joins\":3,\"oldestWaitSeconds\":1,\"abandoned\":0}"
                                .getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().set("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, body.length);
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(body);
                }
            });
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @DynamicPropertySource
    static void queueUrl(DynamicPropertyRegistry registry) {
        registry.add(
                "waitroom.services.queue-url",
                () -> "http://127.0.0.1:" + QUEUE.getAddress().getPort());
    }

    @AfterAll
    static void stop() {
        QUEUE.stop(0);
    }

    @Autowired
    QueueDirectory queue;

    @Autowired
    Tracer tracer;

    static String header(Map<String, List<String>> headers, String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Test
    void aQueueCallCarriesTheCallersTraceAsTraceparent() {
        Span caller = tracer.nextSpan().name("test caller").start();
        try (Tracer.SpanInScope scope = tracer.withSpan(caller)) {
            assertThat(queue.counts(EventId.of("traced-event")).waiting()).isEqualTo(3);
        } finally {
            caller.end();
        }

        Map<String, List<String>> received = RECEIVED.stream()
                .filter(headers -> header(headers, ":path").equals("/internal/events/traced-event/counts"))
                .findFirst()
                .orElseThrow();
        String traceparent = header(received, "traceparent");
        assertThat(traceparent).isNotNull().matches(TRACEPARENT);
        assertThat(traceparent.substring(3, 35)).isEqualTo(caller.context().traceId());
        assertThat(traceparent.substring(36, 52))
                .as("the client call's own span, under the caller's")
                .isNotEqualTo(caller.context().spanId());
        assertThat(header(received, "x-request-id"))
                .as("no hand-made request id")
                .isNull();
    }

    @Test
    void aQueueCallOutsideAnyRequestStartsATraceOfItsOwn() {
        queue.counts(EventId.of("untraced-event"));
        queue.counts(EventId.of("untraced-event"));

        List<String> traces = RECEIVED.stream()
                .filter(headers -> header(headers, ":path").equals("/internal/events/untraced-event/counts"))
                .map(headers -> header(headers, "traceparent"))
                .peek(traceparent -> assertThat(traceparent).isNotNull().matches(TRACEPARENT))
                .map(traceparent -> traceparent.substring(3, 35))
                .toList();
        assertThat(traces).hasSize(2).doesNotHaveDuplicates();
    }
}
