package dev.waitroom.coordinator.rate.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.RateController;
import dev.waitroom.coordinator.rate.RateControllerSettings;
import dev.waitroom.coordinator.rate.RateDecision;
import dev.waitroom.coordinator.support.CoordinatorTest;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Booking reports to one coordinator URL; the instance that leads an event may be another one. Every instance
 * must see every report, or the leader finds health stale and pauses admission for good.
 */
@CoordinatorTest
class SharedHealthFeedTests {

    @Autowired
    JdbcClient jdbc;

    private static HealthSample healthy(Instant at) {
        return new HealthSample(at, 1, 100, 40, 80, 0.0, 2, 0, 10, 0.0);
    }

    @Test
    void aReportReceivedByAnotherInstanceReachesThisInstancesController() {
        HealthReports here = new HealthReports(this.jdbc);
        HealthReports elsewhere = new HealthReports(this.jdbc);
        List<RateDecision> decisions = new ArrayList<>();
        RateController controller =
                RateController.of(RateControllerSettings.defaults(), Clock.systemUTC(), decisions::add);
        SharedHealthFeed feed = new SharedHealthFeed(here, controller);
        feed.feed(); // starts from the newest report: older ones are stale anyway

        for (int i = 0; i < 4; i++) {
            elsewhere.append(healthy(Instant.now()));
            feed.feed();
        }

        assertThat(controller.view().lastReportAt()).isNotNull();
        assertThat(controller.factor())
                .as("health seen through PostgreSQL resumes admission")
                .isPositive();
    }

    @Test
    void anInstanceDoesNotFeedItselfItsOwnReportsTwice() {
        HealthReports here = new HealthReports(this.jdbc);
        List<RateDecision> decisions = new ArrayList<>();
        RateController controller =
                RateController.of(RateControllerSettings.defaults(), Clock.systemUTC(), decisions::add);
        SharedHealthFeed feed = new SharedHealthFeed(here, controller);
        feed.feed();

        here.append(healthy(Instant.now()));
        feed.feed();

        assertThat(controller.view().lastReportAt())
                .as("its own reports are recorded where they arrive")
                .isNull();
    }
}
