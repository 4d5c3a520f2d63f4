package dev.waitroom.booking.signals;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.waitroom.booking.ShopTestSupport;
import dev.waitroom.booking.TestSecrets;
import dev.waitroom.contract.coordinator.HealthReport;
import java.sql.Connection;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The health the coordinator throttles on follows what shoppers experience, including injected faults. */
class HealthSignalsTests extends ShopTestSupport {

    private static final String OPS = "Bearer " + TestSecrets.OPS_TOKEN;

    @Autowired
    DataSource dataSource;

    @AfterEach
    void clearFaults() {
        assertThat(send("DELETE", "/admin/booking/faults", OPS, null).status()).isEqualTo(200);
    }

    @Test
    void injectedLatencyShowsInTheReportedPercentiles() throws Exception {
        String event = newEvent("latency", 2);
        TestShopper shopper = shopper(event);
        setFaults("{\"latencyMs\":300}");
        whileBrowsing(shopper, Instant.now(), r -> {
            assertThat(r.requests()).isPositive();
            assertThat(r.latencyP95Ms()).isGreaterThanOrEqualTo(300);
            assertThat(r.latencyP99Ms()).isGreaterThanOrEqualTo(r.latencyP95Ms());
            assertThat(r.errorRate()).isZero();
        });
        clearFaults();
        whileBrowsing(shopper, Instant.now().plusSeconds(1), r -> {
            assertThat(r.requests()).isPositive();
            assertThat(r.latencyP95Ms()).isLessThan(300);
        });
    }

    @Test
    void injectedErrorsAreProblemsAndShowInTheReportedErrorRate() throws Exception {
        String event = newEvent("errors", 2);
        TestShopper shopper = shopper(event);
        setFaults("{\"errorRate\":1.0}");
        hold(shopper, "A-1").assertProblem(503, "injected-fault");
        assertThat(seatState(event, "A-1")).isEqualTo("AVAILABLE");
        whileBrowsing(shopper, Instant.now(), r -> {
            assertThat(r.requests()).isPositive();
            assertThat(r.errorRate()).isEqualTo(1.0);
        });
    }

    @Test
    void aSmallerPoolShowsAsPoolPressureAndBusyDatabaseProblems() throws Exception {
        String event = newEvent("pool", 2);
        TestShopper shopper = shopper(event);
        setFaults("{\"poolLimit\":1}");
        Instant since = Instant.now();
        CompletableFuture<Response> waiting;
        try (Connection taken = dataSource.getConnection()) {
            waiting = CompletableFuture.supplyAsync(() -> shop(shopper, "GET", "/seats", null));
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(reportsSince(since)).anySatisfy(r -> {
                        assertThat(r.poolMax()).isEqualTo(1);
                        assertThat(r.poolActive()).isGreaterThanOrEqualTo(1);
                        assertThat(r.poolPending()).isGreaterThanOrEqualTo(1);
                    }));
            // The only connection stays taken past the wait limit: the shopper gets a 503 problem, not a hang.
            waiting.get(10, TimeUnit.SECONDS).assertProblem(503, "database-busy");
        }
        assertThat(shop(shopper, "GET", "/seats", null).status()).isEqualTo(200);
    }

    @Test
    void holdFailuresShowInTheReportedHoldFailureRate() {
        String event = newEvent("holdfail", 1);
        Instant since = Instant.now();
        assertThat(hold(shopper(event), "A-1").status()).isEqualTo(201);
        for (int i = 0; i < 3; i++) {
            hold(shopper(event), "A-1").assertProblem(409, "seats-unavailable");
        }
        await().atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> assertThat(reportsSince(since))
                        .anySatisfy(r -> assertThat(r.holdFailureRate()).isGreaterThan(0.0)));
    }

    @Test
    void faultInjectionNeedsTheOpsTokenAndValidSettings() {
        send("PUT", "/admin/booking/faults", null, "{\"latencyMs\":100}").assertProblem(401, "ops-credential-required");
        send("PUT", "/admin/booking/faults", "Bearer wrong", "{\"latencyMs\":100}")
                .assertProblem(401, "ops-credential-required");
        send("PUT", "/admin/booking/faults", OPS, "{\"errorRate\":2}").assertProblem(400, "malformed-request");
        send("PUT", "/admin/booking/faults", OPS, "{\"latencyMs\":-1}").assertProblem(400, "malformed-request");
        send("PUT", "/admin/booking/faults", OPS, "{\"latencyMs\":").assertProblem(400, "malformed-request");
        Response current = send("GET", "/admin/booking/faults", OPS, null);
        assertThat(current.json().get("latencyMs").asLong()).isZero();
        assertThat(current.json().get("errorRate").asDouble()).isZero();

        Response set =
                send("PUT", "/admin/booking/faults", OPS, "{\"latencyMs\":5,\"errorRate\":0.25,\"poolLimit\":3}");
        assertThat(set.status()).isEqualTo(200);
        assertThat(send("GET", "/admin/booking/faults", OPS, null)
                        .json()
                        .get("poolLimit")
                        .asInt())
                .isEqualTo(3);
        assertThat(send("DELETE", "/admin/booking/faults", OPS, null)
                        .json()
                        .get("poolLimit")
                        .asInt())
                .isZero();
    }

    private void setFaults(String body) {
        Response response = send("PUT", "/admin/booking/faults", OPS, body);
        assertThat(response.status()).as(response.raw().body()).isEqualTo(200);
    }

    /** Browses the seats one request after another until a report after {@code since} satisfies {@code expected}. */
    private void whileBrowsing(TestShopper shopper, Instant since, ThrowingConsumer<HealthReport> expected)
            throws InterruptedException {
        try (Traffic traffic = new Traffic(() -> shop(shopper, "GET", "/seats", null))) {
            await().atMost(Duration.ofSeconds(15))
                    .untilAsserted(() -> assertThat(reportsSince(since)).anySatisfy(expected));
        }
    }

    private java.util.List<HealthReport> reportsSince(Instant since) {
        return coordinator.healthReports().stream()
                .filter(r -> r.at().isAfter(since))
                .toList();
    }

    /** Shop requests in the background, one after another, until closed. */
    private static final class Traffic implements AutoCloseable {

        private final AtomicBoolean running = new AtomicBoolean(true);
        private final ExecutorService thread = Executors.newSingleThreadExecutor();

        Traffic(Runnable request) {
            thread.submit(() -> {
                while (running.get()) {
                    request.run();
                }
            });
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.shutdown();
            thread.awaitTermination(10, TimeUnit.SECONDS);
        }
    }
}
