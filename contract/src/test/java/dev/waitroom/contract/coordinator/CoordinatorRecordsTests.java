package dev.waitroom.contract.coordinator;

import static dev.waitroom.contract.queue.WireJson.JSON;
import static dev.waitroom.contract.queue.WireJson.json;
import static dev.waitroom.contract.queue.WireJson.roundTrips;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.waitroom.contract.MalformedValueException;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import java.time.Instant;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Every record of the coordinator's internal API for booking against the JSON booking sent and the coordinator read
 * before these records: Jackson reads the sample into the record and writes the record back as the same JSON.
 */
class CoordinatorRecordsTests {

    @Test
    void healthReportIsWhatBookingSendsEverySecond() {
        // RestClientCoordinatorSignalsTests' report: booking's whole-millisecond latencies read as numbers
        String sent = json(
                "{'at':'2026-01-01T00:00:00Z','windowSeconds':1,'requests':42,'latencyP95Ms':120,"
                        + "'latencyP99Ms':250,'errorRate':0.05,'poolActive':3,'poolPending':1,'poolMax':10,'holdFailureRate':0.2}");
        HealthReport report =
                new HealthReport(Instant.parse("2026-01-01T00:00:00Z"), 1, 42, 120, 250, 0.05, 3, 1, 10, 0.2);
        roundTrips(sent, report);
        assertThat(report.validated()).isSameAs(report);
        assertThat(JSON.readValue(
                                json(
                                        "{'at':'2026-01-01T00:00:00Z','windowSeconds':1,'requests':42,'latencyP95Ms':12.5,"
                                                + "'latencyP99Ms':40.25,'errorRate':0,'poolActive':0,'poolPending':0,'poolMax':0,'holdFailureRate':0}"),
                                HealthReport.class)
                        .latencyP99Ms())
                .isEqualTo(40.25);
    }

    @Test
    void healthReportThatCannotBeAMeasurementIsAnInvalidHealthReport() {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        assertInvalid(new HealthReport(null, 1, 1, 1, 1, 0, 0, 0, 1, 0), "at is required");
        assertInvalid(new HealthReport(at, 1, 1, 1, 1, 2, 0, 0, 1, 0), "rates must be within 0..1");
        assertInvalid(new HealthReport(at, 1, 1, 1, 1, 0, 0, 0, 1, Double.NaN), "rates must be within 0..1");
        assertInvalid(new HealthReport(at, 1, -1, 1, 1, 0, 0, 0, 1, 0), "figures must not be negative");
        assertInvalid(new HealthReport(at, 1, 1, 1, 1, 0, 0, -1, 1, 0), "figures must not be negative");
        String latencies = "latencies must be numbers of at most 86400000 ms";
        assertInvalid(new HealthReport(at, 1, 1, Double.POSITIVE_INFINITY, 1, 0, 0, 0, 1, 0), latencies);
        assertInvalid(new HealthReport(at, 1, 1, 1, Double.NaN, 0, 0, 0, 1, 0), latencies);
        assertInvalid(new HealthReport(at, 1, 1, 1, 1.2e29, 0, 0, 0, 1, 0), latencies);
    }

    private static void assertInvalid(HealthReport report, String detail) {
        assertThatThrownBy(report::validated).isInstanceOfSatisfying(MalformedValueException.class, e -> {
            assertThat(e.problem()).isEqualTo(ProblemType.INVALID_HEALTH_REPORT);
            assertThat(e.getMessage()).isEqualTo(detail);
        });
    }

    @Test
    void soldOutCarriesAReasonAndAnswersTheMode() {
        roundTrips(json("{'reason':'all seats sold'}"), new SoldOut("all seats sold"));
        roundTrips(json("{'eventId':'ev-1','mode':'SOLD_OUT'}"), new SoldOutResult("ev-1", OperatingMode.SOLD_OUT));
        assertThat(new SoldOut("all seats sold").reasonOrDefault()).isEqualTo("all seats sold");
        assertThat(JSON.readValue("{}", SoldOut.class).reasonOrDefault()).isEqualTo("sold out");
        assertThat(new SoldOut("  ").reasonOrDefault()).isEqualTo("sold out");
        assertThat(new SoldOut("x".repeat(600)).reasonOrDefault()).hasSize(500);
    }

    @Test
    void purchaseCompletedNamesTheOrderAndAnswersTheGrantState() {
        UUID order = UUID.fromString("0b6c2d0e-8f3a-4e51-b7d2-6a9c1e4f3b28");
        UUID session = UUID.fromString("7d1e9a44-3c2b-4f6e-8a15-2b9c0d7e6f31");
        PurchaseCompleted completed = new PurchaseCompleted(order.toString());
        roundTrips(json("{'orderId':'" + order + "'}"), completed);
        assertThat(completed.validated()).isSameAs(completed);
        roundTrips(
                json("{'sessionId':'" + session + "','state':'RELEASED'}"),
                new PurchaseCompletedResult(session, "RELEASED"));
        for (String bad : Arrays.asList(null, "", "   ", "o".repeat(101))) {
            assertThatThrownBy(() -> new PurchaseCompleted(bad).validated())
                    .isInstanceOfSatisfying(
                            MalformedValueException.class,
                            e -> assertThat(e.problem()).isEqualTo(ProblemType.MALFORMED_REQUEST))
                    .hasMessage("orderId is required.");
        }
    }

    @Test
    void pathsAreTheRoutesBothSidesUse() {
        assertThat(CoordinatorPaths.HEALTH).isEqualTo("/internal/health");
        assertThat(CoordinatorPaths.SOLD_OUT).isEqualTo("/internal/events/{eventId}/sold-out");
        assertThat(CoordinatorPaths.PURCHASE_COMPLETED)
                .isEqualTo("/internal/events/{eventId}/sessions/{sessionId}/purchase-completed");
    }
}
