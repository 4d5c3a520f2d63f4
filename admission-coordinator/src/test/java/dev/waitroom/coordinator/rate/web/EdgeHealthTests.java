package dev.waitroom.coordinator.rate.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.coordinator.CoordinatorPaths;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import dev.waitroom.coordinator.event.EventConfig;
import dev.waitroom.coordinator.rate.HealthStatus;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Health measured at the edge, through the coordinator's real HTTP API and ticker: the gateways' reports
 * ({@code POST /internal/edge-health}) move each event's factor on its own origin's health, and an event whose shop
 * reports nothing is offered visitors, with edge windows and with none at all (docs/design/architecture.md, rate controller).
 */
@CoordinatorTest
class EdgeHealthTests {

    private static final String ORIGIN = "http://127.0.0.1:18083";

    @Autowired
    Scenario scenario;

    @BeforeEach
    void noFreshShopReport() {
        // other tests' booking reports are of the shared test clock: past stale-after, they no longer count
        this.scenario.clock.advance(Duration.ofSeconds(10));
    }

    private static EventConfig config() {
        return Scenario.config(100, 10, 50, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE);
    }

    private static EdgeHealthReport.Window healthy(String event) {
        return new EdgeHealthReport.Window(event, ORIGIN, 40, 0, 0, 0, 50, 100);
    }

    private static EdgeHealthReport.Window refused(String event) {
        return new EdgeHealthReport.Window(event, ORIGIN, 40, 0, 0, 40, 0, 0);
    }

    private Http.Response report(EdgeHealthReport.Window... windows) {
        return this.scenario
                .http()
                .post(
                        CoordinatorPaths.EDGE_HEALTH,
                        Http.json(new EdgeHealthReport("gw-test", this.scenario.now(), 1, List.of(windows))));
    }

    /** Moves time on by a second and ticks the event; returns the offers made. */
    private int tick(String event) {
        this.scenario.clock.advance(Duration.ofSeconds(1));
        return this.scenario.ticker.tick(this.scenario.management.get(EventId.of(event)));
    }

    private double factor(String event) {
        return this.scenario.rates.factor(EventId.of(event));
    }

    @Test
    void oneEventsFactorFallsOnItsOriginsBadEdgeHealthWhileAnothersStays() {
        String fine = this.scenario.openNewEvent("edge-fine", config());
        String failing = this.scenario.openNewEvent("edge-failing", config());
        this.scenario.join(fine, 30);
        this.scenario.join(failing, 30);
        for (int i = 0; i < 6; i++) {
            this.scenario.clock.advance(Duration.ofSeconds(1));
            assertThat(report(healthy(fine), healthy(failing)).status()).isEqualTo(204);
        }
        this.scenario.clock.advance(Duration.ofSeconds(1));
        assertThat(report(healthy(fine), refused(failing)).status()).isEqualTo(204);

        assertThat(factor(failing))
                .as("every request to its origin refused: paused")
                .isZero();
        assertThat(this.scenario.rates.view(EventId.of(failing)).edgeStatus()).isEqualTo(HealthStatus.CRITICAL);
        assertThat(factor(fine)).as("the other event's origin is fine").isGreaterThan(0.2);
        int offeredFine = 0;
        int offeredFailing = 0;
        for (int i = 0; i < 3; i++) {
            report(healthy(fine), refused(failing));
            offeredFine += tick(fine);
            offeredFailing += tick(failing);
        }
        assertThat(offeredFine).isPositive();
        assertThat(offeredFailing).isZero();
    }

    @Test
    void anEventWhoseShopReportsNothingIsOfferedVisitorsBeforeAnySampleAtTheStartingFactor() {
        String event = this.scenario.openNewEvent("edge-none", config());
        this.scenario.join(event, 30);

        int offered = 0;
        for (int i = 0; i < 5; i++) {
            offered += tick(event);
        }
        assertThat(factor(event)).isEqualTo(0.2);
        assertThat(this.scenario.rates.view(EventId.of(event)).status()).isEqualTo(HealthStatus.UNMEASURED);
        assertThat(offered).as("5 s at 0.2 x 10/s").isBetween(6, 10);
    }

    @Test
    void edgeWindowsAloneRaiseTheFactorOfAShopThatReportsNothingAndTheTickerOffersAtIt() {
        String event = this.scenario.openNewEvent("edge-only", config());
        this.scenario.join(event, 100);
        for (int i = 0; i < 30; i++) {
            this.scenario.clock.advance(Duration.ofSeconds(1));
            report(healthy(event));
        }
        assertThat(factor(event)).isEqualTo(1.0);
        tick(event);
        int offered = 0;
        for (int i = 0; i < 3; i++) {
            report(healthy(event));
            offered += tick(event);
        }
        assertThat(offered).as("3 s at the full 10/s").isBetween(25, 30);
    }

    @Test
    void theEdgeStoppingAfterTrafficPausesTheEventAndItsReturnResumesIt() {
        String event = this.scenario.openNewEvent("edge-stale", config());
        this.scenario.join(event, 30);
        for (int i = 0; i < 5; i++) {
            this.scenario.clock.advance(Duration.ofSeconds(1));
            report(healthy(event));
        }
        assertThat(factor(event)).isPositive();

        this.scenario.clock.advance(Duration.ofSeconds(4));
        assertThat(factor(event))
                .as("no gateway reported for 4 s after traffic")
                .isZero();
        assertThat(this.scenario.rates.view(EventId.of(event)).status()).isEqualTo(HealthStatus.STALE);
        assertThat(tick(event)).isZero();

        for (int i = 0; i < 3; i++) {
            this.scenario.clock.advance(Duration.ofSeconds(1));
            assertThat(report().status()).as("a report with no window").isEqualTo(204);
        }
        assertThat(factor(event))
                .as("the edge is back: a probe at the resume factor")
                .isEqualTo(0.2);
    }

    @Test
    void aReportThatCannotBeAMeasurementIsAProblem() {
        String invalid = ProblemType.INVALID_HEALTH_REPORT.type().toString();
        Http http = this.scenario.http();
        Http.Response moreFailuresThanRequests = http.post(
                CoordinatorPaths.EDGE_HEALTH,
                Http.json(new EdgeHealthReport(
                        "gw",
                        this.scenario.now(),
                        1,
                        List.of(new EdgeHealthReport.Window("e-1", ORIGIN, 2, 2, 1, 0, 0, 0)))));
        assertThat(moreFailuresThanRequests.status()).isEqualTo(400);
        assertThat(moreFailuresThanRequests.problemType()).isEqualTo(invalid);
        Http.Response badEvent = http.post(
                CoordinatorPaths.EDGE_HEALTH,
                Http.json(new EdgeHealthReport(
                        "gw",
                        this.scenario.now(),
                        1,
                        List.of(new EdgeHealthReport.Window("{bad}", ORIGIN, 2, 0, 0, 0, 0, 0)))));
        assertThat(badEvent.status()).isEqualTo(400);
        assertThat(badEvent.problemType()).isEqualTo(invalid);
        Http.Response noGateway =
                http.post(CoordinatorPaths.EDGE_HEALTH, "{\"at\":\"" + this.scenario.now() + "\",\"windowSeconds\":1}");
        assertThat(noGateway.status()).isEqualTo(400);
        assertThat(noGateway.problemType()).isEqualTo(invalid);
        Http.Response noCredential = new Http(this.scenario.port())
                .post(CoordinatorPaths.EDGE_HEALTH, "{\"gateway\":\"gw\",\"at\":\"" + this.scenario.now() + "\"}");
        assertThat(noCredential.status())
                .as("the internal credential is required")
                .isEqualTo(403);
    }
}
