package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;

/**
 * The truth about pauses (docs/operating/schedules-and-pauses.md): when the shop's health pauses or slows admission,
 * the event's hold says so and {@code waitroom_admission_held_by_health} shows it per reason, 0 from the first tick.
 */
@CoordinatorTest
class HealthHoldTests {

    @Autowired
    Scenario scenario;

    @Autowired
    EventStatePublisher publisher;

    @LocalManagementPort
    int managementPort;

    private double held(String eventId, String reason) {
        Http.Response r = new Http(this.managementPort).get("/actuator/prometheus");
        Matcher m = Pattern.compile("waitroom_admission_held_by_health\\{application=\"admission-coordinator\",event=\""
                        + Pattern.quote(eventId) + "\",reason=\"" + reason + "\"} ([0-9.]+)")
                .matcher(r.body());
        assertThat(m.find())
                .as("series for " + eventId + " " + reason + " in\n" + r.body())
                .isTrue();
        return Double.parseDouble(m.group(1));
    }

    private Event event(String id) {
        return this.scenario.management.get(EventId.of(id));
    }

    @Test
    void aCriticalShopPausesAdmissionAndThePageAndTheMetricSaySo() {
        String id = this.scenario.openNewEvent(
                "held",
                Scenario.config(10, 10, 10, 60, 300, 900, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        this.scenario.tick(id, Duration.ofSeconds(1));
        assertThat(held(id, "paused")).isZero();
        assertThat(held(id, "slowed")).isZero();
        assertThat(this.publisher.hold(event(id))).isEmpty();

        // p95 far over the critical latency: the controller pauses admission
        this.scenario.clock.advance(Duration.ofSeconds(1));
        this.scenario.rates.record(new HealthSample(this.scenario.now(), 1, 100, 9_000, 12_000, 0, 1, 0, 20, 0));
        this.scenario.join(id, 2);
        this.scenario.ticker.tick(event(id));
        assertThat(this.scenario.grants.count(EventId.of(id)).offered()).isZero();
        assertThat(this.publisher.hold(event(id)))
                .contains(AdmissionHold.of(AdmissionHold.Cause.SHOP_PAUSED, null, null));
        assertThat(held(id, "paused")).isEqualTo(1.0);
        assertThat(held(id, "slowed")).isZero();
        assertThat(event(id).mode().name())
                .as("the mode is the operators'; the hold is beside it")
                .isEqualTo("QUEUEING");

        // healthy windows: admission resumes at a low factor and the hold ends
        for (int i = 0; i < 60; i++) {
            this.scenario.clock.advance(Duration.ofMillis(500));
            this.scenario.healthy();
        }
        this.scenario.ticker.tick(event(id));
        assertThat(held(id, "paused")).isZero();
        assertThat(this.publisher.hold(event(id))).isEmpty();
    }

    @Test
    void aDegradedShopSlowsAdmissionWhichIsSaidAsSlowed() {
        String id = this.scenario.openNewEvent(
                "slow",
                Scenario.config(10, 10, 10, 60, 300, 900, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        this.scenario.tick(id, Duration.ofSeconds(1)); // full rate, healthy
        // degraded (not critical) latency for several windows: the factor is cut, admission continues
        for (int i = 0; i < 6; i++) {
            this.scenario.clock.advance(Duration.ofSeconds(1));
            this.scenario.rates.record(new HealthSample(this.scenario.now(), 1, 100, 1_500, 2_000, 0, 1, 0, 20, 0));
        }
        this.scenario.ticker.tick(event(id));
        assertThat(this.publisher.hold(event(id)))
                .contains(AdmissionHold.of(AdmissionHold.Cause.SHOP_SLOWED, null, null));
        assertThat(held(id, "slowed")).isEqualTo(1.0);
        assertThat(held(id, "paused")).isZero();
    }
}
