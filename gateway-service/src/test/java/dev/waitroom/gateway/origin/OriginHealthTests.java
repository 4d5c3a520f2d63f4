package dev.waitroom.gateway.origin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import dev.waitroom.gateway.testing.Browser;
import dev.waitroom.gateway.testing.GatewayIntegrationTest;
import dev.waitroom.gateway.testing.StubUpstreams;
import dev.waitroom.testsupport.LoopbackHttpServer;
import dev.waitroom.testsupport.RecordedRequest;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.cloud.gateway.support.RouteMetadataUtils;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import tools.jackson.databind.json.JsonMapper;

/**
 * Health measured at the edge (docs/design/architecture.md, rate controller): every request forwarded to a real origin on
 * loopback (the JDK's HTTP server: quick, slow past the route's response timeout, answering 503; and a port nothing
 * listens on) is counted per event with its outcome and latency, and reaches the coordinator in the once-a-second
 * {@code POST /internal/edge-health}; requests to Waitroom's own services are not an origin's.
 */
@GatewayIntegrationTest
@Import(OriginHealthTests.Origins.class)
class OriginHealthTests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    /** The origin: {@code …/ok} answers at once, {@code …/lag} after 120 ms, {@code …/slow} after 1.5 s, {@code …/fail} 503. */
    static final LoopbackHttpServer ORIGIN = LoopbackHttpServer.start(OriginHealthTests::answer, 16);

    static final int CLOSED_PORT = closedPort();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    final StubUpstreams upstreams = StubUpstreams.get();

    @TestConfiguration(proxyBeanMethods = false)
    static class Origins {

        /**
         * Routes to the test origin ahead of the configured ones: today's shop path shape (the event from the path),
         * a path protected the way per-event routes mark it (the {@code waitroom.protected-event} attribute), and the
         * shop path shape to a port that refuses connections. The response timeout is 400 ms.
         */
        @Bean
        RouteLocator originHealthRoutes(RouteLocatorBuilder routes) {
            return routes.routes()
                    .route(
                            "origin-health-live",
                            r -> r.order(-10)
                                    .path("/events/{eventId}/shop/**")
                                    .and()
                                    .header("X-Origin-Test", "live")
                                    .metadata(RouteMetadataUtils.RESPONSE_TIMEOUT_ATTR, 400)
                                    .uri(ORIGIN.uri()))
                    .route(
                            "origin-health-refused",
                            r -> r.order(-10)
                                    .path("/events/{eventId}/shop/**")
                                    .and()
                                    .header("X-Origin-Test", "refused")
                                    .uri("http://127.0.0.1:" + CLOSED_PORT))
                    .route(
                            "origin-health-protected",
                            r -> r.order(-10)
                                    .path("/concerts/**")
                                    .filters(f -> f.filter((exchange, chain) -> {
                                        exchange.getAttributes()
                                                .put(
                                                        OriginHealthGlobalFilter.PROTECTED_EVENT,
                                                        EventId.of(exchange.getRequest()
                                                                .getHeaders()
                                                                .getFirst("X-Test-Event")));
                                        return chain.filter(exchange);
                                    }))
                                    .uri(ORIGIN.uri()))
                    .build();
        }
    }

    @AfterAll
    static void stopOrigin() {
        ORIGIN.close();
    }

    @Test
    void everyForwardedRequestIsCountedPerEventWithItsOutcomeAndReportedToTheCoordinator() {
        String shop = "oh-" + UUID.randomUUID().toString().substring(0, 8);
        String down = "oh-" + UUID.randomUUID().toString().substring(0, 8);
        String concerts = "oh-" + UUID.randomUUID().toString().substring(0, 8);
        Browser browser = new Browser(port);
        Instant start = Instant.now();

        for (int i = 0; i < 5; i++) {
            assertThat(browser.get("/events/" + shop + "/shop/ok", "X-Origin-Test", "live")
                            .status())
                    .isEqualTo(200);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(browser.get("/events/" + shop + "/shop/lag", "X-Origin-Test", "live")
                            .status())
                    .isEqualTo(200);
        }
        for (int i = 0; i < 4; i++) {
            assertThat(browser.get("/events/" + shop + "/shop/fail", "X-Origin-Test", "live")
                            .status())
                    .isEqualTo(503);
        }
        for (int i = 0; i < 2; i++) {
            assertThat(browser.get("/events/" + shop + "/shop/slow", "X-Origin-Test", "live")
                            .status())
                    .isEqualTo(504);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(browser.get("/events/" + down + "/shop/ok", "X-Origin-Test", "refused")
                            .status())
                    .isGreaterThanOrEqualTo(500);
        }
        for (int i = 0; i < 2; i++) {
            assertThat(browser.get("/concerts/123/seats", "X-Test-Event", concerts)
                            .status())
                    .isEqualTo(200);
        }
        // Waitroom's own services are no shop origin
        browser.get("/events/" + shop + "/status");

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Totals a = totals(shop, start);
            assertThat(a.requests).isEqualTo(14);
            assertThat(a.serverErrors).isEqualTo(4);
            assertThat(a.timeouts).isEqualTo(2);
            assertThat(a.connectionErrors).isZero();
            assertThat(a.maxP99)
                    .as("the lagging answers (120 ms) are in the 250 ms bucket")
                    .isGreaterThanOrEqualTo(250);
            assertThat(a.maxP99).as("timed-out requests are not latencies").isLessThan(1500);
            assertThat(a.origins).containsOnly(ORIGIN.uri().toString());

            Totals b = totals(down, start);
            assertThat(b.requests).isEqualTo(3);
            assertThat(b.connectionErrors).isEqualTo(3);
            assertThat(b.origins).containsOnly("http://127.0.0.1:" + CLOSED_PORT);

            Totals c = totals(concerts, start);
            assertThat(c.requests)
                    .as("the protected-event attribute names the event")
                    .isEqualTo(2);
            assertThat(c.failures()).isZero();
        });
        assertThat(count(shop, "ok")).isEqualTo(8);
        assertThat(count(shop, "server-error")).isEqualTo(4);
        assertThat(count(shop, "timeout")).isEqualTo(2);
        assertThat(count(down, "connection-error")).isEqualTo(3);
        assertThat(meters.get("waitroom.gateway.origin.latency")
                        .tag("event", shop)
                        .timer()
                        .count())
                .isEqualTo(12);
    }

    @Test
    void aReportGoesOutEveryIntervalEvenWithNothingForwarded() {
        Instant start = Instant.now();
        await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(reports(start))
                        .as("reports since the start of this test")
                        .hasSizeGreaterThanOrEqualTo(3)
                        .allSatisfy(r -> assertThat(r.gateway()).startsWith("gateway-"))
                        .anySatisfy(r -> assertThat(r.windows()).isEmpty()));
    }

    private double count(String event, String outcome) {
        return meters.get("waitroom.gateway.origin.requests")
                .tag("event", event)
                .tag("outcome", outcome)
                .counter()
                .count();
    }

    private List<EdgeHealthReport> reports(Instant since) {
        return upstreams.coordinator.received(r -> r.path().equals(CoordinatorPaths.EDGE_HEALTH)).stream()
                .map(RecordedRequest::body)
                .map(body -> JSON.readValue(body, EdgeHealthReport.class).validated())
                .filter(r -> !r.at().isBefore(since))
                .toList();
    }

    private static final class Totals {
        long requests;
        long serverErrors;
        long timeouts;
        long connectionErrors;
        double maxP99;
        final java.util.Set<String> origins = new java.util.HashSet<>();

        long failures() {
            return serverErrors + timeouts + connectionErrors;
        }
    }

    private Totals totals(String event, Instant since) {
        Totals t = new Totals();
        for (EdgeHealthReport report : reports(since)) {
            for (EdgeHealthReport.Window w : report.windows()) {
                if (w.eventId().equals(event)) {
                    t.requests += w.requests();
                    t.serverErrors += w.serverErrors();
                    t.timeouts += w.timeouts();
                    t.connectionErrors += w.connectionErrors();
                    t.maxP99 = Math.max(t.maxP99, w.latencyP99Ms());
                    t.origins.add(w.origin());
                }
            }
        }
        return t;
    }

    private static void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            exchange.getRequestBody().readAllBytes();
            String path = exchange.getRequestURI().getPath();
            int status = 200;
            try {
                if (path.endsWith("/lag")) {
                    Thread.sleep(120);
                } else if (path.endsWith("/slow")) {
                    Thread.sleep(1500);
                } else if (path.endsWith("/fail")) {
                    status = 503;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            byte[] body = "{\"served\":\"origin\"}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, body.length);
            exchange.getResponseBody().write(body);
        } catch (IOException e) {
            // the gateway gave up on a slow answer and closed the connection
        }
    }

    private static int closedPort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
