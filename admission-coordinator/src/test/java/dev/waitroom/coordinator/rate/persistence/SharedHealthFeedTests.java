package dev.waitroom.coordinator.rate.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.coordinator.EdgeHealthReport;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.HealthStatus;
import dev.waitroom.coordinator.rate.RateControllerSettings;
import dev.waitroom.coordinator.rate.RateDecision;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Booking and the gateways report to one coordinator URL; the instance that leads an event may be another one. Every
 * instance must see every report, or the leader judges an event on part of its health, or pauses it as stale.
 */
@CoordinatorTest
class SharedHealthFeedTests {

    @Autowired
    JdbcClient jdbc;

    private static HealthSample healthy(Instant at) {
        return new HealthSample(at, 1, 100, 40, 80, 0.0, 2, 0, 10, 0.0);
    }

    private final List<RateDecision> decisions = new ArrayList<>();

    private EventRates rates() {
        return EventRates.of(
                RateControllerSettings.defaults(), Clock.systemUTC(), (event, d) -> this.decisions.add(d), e -> {});
    }

    @Test
    void aReportReceivedByAnotherInstanceReachesThisInstancesController() {
        HealthReports here = new HealthReports(this.jdbc);
        HealthReports elsewhere = new HealthReports(this.jdbc);
        EventRates rates = rates();
        EventId event = EventId.of(Scenario.eventId("feed"));
        rates.of(event);
        SharedHealthFeed feed = new SharedHealthFeed(here, new EdgeHealthReports(this.jdbc), rates);
        feed.feed(); // starts from the newest report: older ones are stale anyway

        for (int i = 0; i < 4; i++) {
            elsewhere.append(healthy(Instant.now()));
            feed.feed();
        }

        assertThat(rates.view(event).lastReportAt()).isNotNull();
        assertThat(rates.shopStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(this.decisions)
                .as("three healthy windows seen through PostgreSQL raise the event's factor")
                .extracting(RateDecision::kind)
                .contains(RateDecision.Kind.INCREASE);
    }

    @Test
    void anInstanceDoesNotFeedItselfItsOwnReportsTwice() {
        HealthReports here = new HealthReports(this.jdbc);
        EventRates rates = rates();
        SharedHealthFeed feed = new SharedHealthFeed(here, new EdgeHealthReports(this.jdbc), rates);
        feed.feed();

        here.append(healthy(Instant.now()));
        feed.feed();

        assertThat(rates.shopStatus())
                .as("its own reports are recorded where they arrive")
                .isEqualTo(HealthStatus.STALE);
    }

    @Test
    void anEdgeReportReceivedByAnotherInstanceReachesTheEventsControllerWhole() {
        EdgeHealthReports elsewhere = new EdgeHealthReports(this.jdbc);
        EventRates rates = rates();
        EventId failing = EventId.of(Scenario.eventId("edge-bad"));
        EventId fine = EventId.of(Scenario.eventId("edge-ok"));
        SharedHealthFeed feed =
                new SharedHealthFeed(new HealthReports(this.jdbc), new EdgeHealthReports(this.jdbc), rates);
        feed.feed();

        elsewhere.append(new EdgeHealthReport(
                "gw-1",
                Instant.now(),
                1,
                List.of(
                        new EdgeHealthReport.Window(failing.value(), "http://127.0.0.1:1", 40, 0, 0, 40, 0, 0),
                        new EdgeHealthReport.Window(fine.value(), "http://127.0.0.1:2", 40, 0, 0, 0, 20, 30))));
        elsewhere.append(new EdgeHealthReport("gw-2", Instant.now(), 1, List.of()));
        feed.feed();

        assertThat(rates.view(failing).edgeStatus()).isEqualTo(HealthStatus.CRITICAL);
        assertThat(rates.factor(failing)).as("every request refused: paused").isZero();
        assertThat(rates.view(fine).edgeStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(rates.factor(fine)).isPositive();
    }
}
