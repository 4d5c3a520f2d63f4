package dev.waitroom.booking.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.HealthReport;
import dev.waitroom.contract.coordinator.SeatCategories;
import dev.waitroom.testsupport.LoopbackHttpServer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.web.client.RestClient;

/** The HTTP adapter of the signals port against a real local HTTP server. */
class RestClientCoordinatorSignalsTests {

    private record Call(String method, String path, String internalHeader, String contentType, String body) {}

    private final List<Call> calls = new CopyOnWriteArrayList<>();
    private final AtomicInteger status = new AtomicInteger(200);
    private LoopbackHttpServer server;
    private RestClientCoordinatorSignals signals;

    @BeforeEach
    void start() {
        server = LoopbackHttpServer.start(exchange -> {
            calls.add(new Call(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("X-Waitroom-Internal"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)));
            exchange.sendResponseHeaders(status.get(), -1);
            exchange.close();
        });
        signals = new RestClientCoordinatorSignals(
                RestClient.builder(), server.uri(), "internal-secret", Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void postsHealthWithTheInternalCredentialAndTheContractFields() {
        signals.health(new HealthReport(Instant.parse("2026-01-01T00:00:00Z"), 1, 42, 120, 250, 0.05, 3, 1, 10, 0.2));
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.method()).isEqualTo("POST");
            assertThat(call.path()).isEqualTo("/internal/health");
            assertThat(call.internalHeader()).isEqualTo("internal-secret");
            assertThat(call.contentType()).startsWith("application/json");
            assertThat(call.body())
                    .contains(
                            "\"at\":\"2026-01-01T00:00:00Z\"",
                            "\"windowSeconds\":1",
                            "\"requests\":42",
                            "\"latencyP95Ms\":120.0",
                            "\"latencyP99Ms\":250.0",
                            "\"errorRate\":0.05",
                            "\"poolActive\":3",
                            "\"poolPending\":1",
                            "\"poolMax\":10",
                            "\"holdFailureRate\":0.2");
        });
    }

    @Test
    void postsSoldOutAndPurchaseCompletedToTheContractPaths() {
        UUID order = UUID.randomUUID();
        signals.soldOut(EventId.of("ev-1"), "all seats sold");
        signals.purchaseCompleted(EventId.of("ev-1"), "session/../x", order);
        assertThat(calls).hasSize(2);
        assertThat(calls.get(0).path()).isEqualTo("/internal/events/ev-1/sold-out");
        assertThat(calls.get(0).body()).contains("\"reason\":\"all seats sold\"");
        // A session id is a path segment, encoded, never a way to reach another path.
        assertThat(calls.get(1).path()).isEqualTo("/internal/events/ev-1/sessions/session%2F..%2Fx/purchase-completed");
        assertThat(calls.get(1).body()).contains("\"orderId\":\"" + order + "\"");
    }

    @Test
    void putsSeatCategoriesToTheContractPath() {
        signals.categories(
                EventId.of("ev-4"),
                new SeatCategories(
                        List.of(new SeatCategories.Category("A", 0), new SeatCategories.Category("Stalls", 12))));
        assertThat(calls).singleElement().satisfies(call -> {
            assertThat(call.method()).isEqualTo("PUT");
            assertThat(call.path()).isEqualTo("/internal/events/ev-4/categories");
            assertThat(call.internalHeader()).isEqualTo("internal-secret");
            assertThat(call.contentType()).startsWith("application/json");
            assertThat(call.body())
                    .isEqualTo("{\"categories\":[{\"name\":\"A\",\"available\":0},"
                            + "{\"name\":\"Stalls\",\"available\":12}]}");
        });
        status.set(404);
        assertThatThrownBy(() -> signals.categories(EventId.of("ev-4"), new SeatCategories(List.of())))
                .isInstanceOf(CoordinatorSignals.CoordinatorRefusedException.class);
    }

    @Test
    void aClientErrorAnswerIsAPermanentRefusal() {
        status.set(404);
        assertThatThrownBy(() -> signals.purchaseCompleted(EventId.of("ev-3"), "s", UUID.randomUUID()))
                .isInstanceOfSatisfying(
                        CoordinatorSignals.CoordinatorRefusedException.class,
                        e -> assertThat(e.status()).isEqualTo(404));
        status.set(403);
        assertThatThrownBy(() -> signals.soldOut(EventId.of("ev-3"), "x"))
                .isInstanceOf(CoordinatorSignals.CoordinatorUnreachableException.class);
    }

    @Test
    void anErrorAnswerOrNoServerIsReportedAsUnreachable() {
        status.set(503);
        assertThatThrownBy(() -> signals.soldOut(EventId.of("ev-2"), "x"))
                .isInstanceOf(CoordinatorSignals.CoordinatorUnreachableException.class);
        server.close();
        assertThatThrownBy(() -> signals.soldOut(EventId.of("ev-2"), "x"))
                .isInstanceOf(CoordinatorSignals.CoordinatorUnreachableException.class);
    }
}
