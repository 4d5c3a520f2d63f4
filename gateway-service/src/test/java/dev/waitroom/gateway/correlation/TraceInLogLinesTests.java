package dev.waitroom.gateway.correlation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import dev.waitroom.gateway.admissioncheck.AdmissionTokenGatewayFilterFactory;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * The lines the gateway writes about a request, beyond its access line, carry the trace and span ids of the edge's
 * span and the request id the client was given: an unexpected error written up by the problem handler, and a shop
 * request the admission-token filter refuses. Each line's MDC is read as the line was written (what the readable
 * pattern and the JSON encoder print).
 */
@GatewayIntegrationTest
@Import(TraceInLogLinesTests.Faulty.class)
class TraceInLogLinesTests {

    /** Fails a routed request that asks for it, as a bug in a filter would. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Faulty {

        @Bean
        @Order(Ordered.HIGHEST_PRECEDENCE)
        GlobalFilter faultOnRequest() {
            return (exchange, chain) -> {
                if (exchange.getRequest().getHeaders().containsHeader("X-Test-Fault")) {
                    throw new IllegalStateException("a bug in a filter");
                }
                return chain.filter(exchange);
            };
        }
    }

    /** A line as written: logger, message and the MDC of that moment. */
    record Line(String logger, String message, Map<String, String> mdc) {}

    static final class Recorder extends AppenderBase<ILoggingEvent> {

        final List<Line> lines = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            lines.add(new Line(
                    event.getLoggerName(), event.getFormattedMessage(), Map.copyOf(event.getMDCPropertyMap())));
        }
    }

    static final List<String> LOGGERS = List.of(
            "dev.waitroom.gateway.access",
            "dev.waitroom.gateway.problem.ProblemWebExceptionHandler",
            AdmissionTokenGatewayFilterFactory.class.getName());

    final Recorder recorder = new Recorder();

    final Map<String, Level> levels = new HashMap<>();

    @LocalServerPort
    int port;

    @BeforeEach
    void record() {
        recorder.start();
        for (String name : LOGGERS) {
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            levels.put(name, logger.getLevel());
            // routine GETs are access-logged at debug, refusals too
            logger.setLevel(Level.DEBUG);
            logger.addAppender(recorder);
        }
    }

    @AfterEach
    void stopRecording() {
        for (String name : LOGGERS) {
            Logger logger = (Logger) LoggerFactory.getLogger(name);
            logger.detachAppender(recorder);
            logger.setLevel(levels.get(name));
        }
        recorder.stop();
    }

    String newEvent() {
        String event = "tl-" + UUID.randomUUID().toString().substring(0, 12);
        StubUpstreams.get().queue.event(event);
        return event;
    }

    /** The lines written with this request id in the MDC. */
    List<Line> linesOf(String requestId) {
        return recorder.lines.stream()
                .filter(line -> requestId.equals(line.mdc().get("requestId")))
                .toList();
    }

    static void assertOneTrace(List<Line> lines, String requestId) {
        assertThat(lines).allSatisfy(line -> {
            assertThat(line.mdc()).as(line.message()).containsEntry("traceId", requestId);
            assertThat(line.mdc().get("spanId")).as(line.message()).matches("[0-9a-f]{16}");
        });
        assertThat(lines.stream().map(line -> line.mdc().get("spanId")).distinct())
                .as("one span: the edge's")
                .hasSize(1);
    }

    @Test
    void theProblemHandlersLineCarriesTheTraceTheClientWasGiven() {
        String path = "/events/" + newEvent() + "/status";
        Browser.Reply reply = new Browser(port).get(path, "X-Test-Fault", "yes");

        reply.assertProblem(500, "internal-error");
        String requestId = reply.header("X-Request-Id").orElseThrow();
        assertThat(requestId).matches("[0-9a-f]{32}");
        // the access line is written when the exchange completes, which may be after the client has the answer
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<Line> lines = linesOf(requestId);
            assertThat(lines)
                    .extracting(Line::message)
                    .anySatisfy(message -> assertThat(message).startsWith("Unexpected error on GET " + path))
                    .anySatisfy(message -> assertThat(message).startsWith("GET " + path + " -> "));
            assertOneTrace(lines, requestId);
        });
        assertThat(recorder.lines)
                .filteredOn(line -> line.message().startsWith("Unexpected error on GET " + path))
                .as("no line of this request without its ids")
                .hasSize(1)
                .allSatisfy(line -> assertThat(line.mdc()).containsEntry("requestId", requestId));
    }

    @Test
    void theAdmissionFiltersRefusalCarriesTheTraceTheClientWasGiven() {
        String path = "/events/" + newEvent() + "/shop/seats";
        Browser.Reply reply = new Browser(port).get(path);

        reply.assertProblem(401, "admission-token-required");
        String requestId = reply.header("X-Request-Id").orElseThrow();
        assertThat(requestId).matches("[0-9a-f]{32}");
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            List<Line> lines = linesOf(requestId);
            assertThat(lines)
                    .extracting(Line::message)
                    .anySatisfy(message -> assertThat(message).isEqualTo("Shop request refused: rejected-required"))
                    .anySatisfy(message -> assertThat(message).startsWith("GET " + path + " -> 401"));
            assertOneTrace(lines, requestId);
        });
    }
}
