package dev.waitroom.coordinator.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.rate.HealthSample;
import dev.waitroom.coordinator.rate.HealthStatus;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Http;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.KeyState;
import dev.waitroom.tokens.SigningKeyInfo;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The scheduled gauges behind the booking-health, lease and signing-key alerts, read as Prometheus reads them (the
 * management port's {@code /actuator/prometheus}) over the real PostgreSQL, after {@link CoordinatorGauges#refresh()}
 * (the schedule is off in tests, as the ticker is).
 */
@CoordinatorTest
class CoordinatorGaugesTests {

    private static final String TAGS = "application=\"admission-coordinator\"";

    @Autowired
    Scenario scenario;

    @Autowired
    CoordinatorGauges gauges;

    @Autowired
    Leases leases;

    @Autowired
    SigningKeys keys;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    CoordinatorGaugesProperties properties;

    @LocalManagementPort
    int managementPort;

    private String scrape() {
        Http.Response response = new Http(this.managementPort).get("/actuator/prometheus");
        assertThat(response.status()).isEqualTo(200);
        return response.body();
    }

    /** The value of the one series named {@code name} with exactly the labels {@code labels}, if published. */
    private static Optional<Double> value(String metrics, String name, String labels) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + labels + "}") + " (\\S+)$")
                .matcher(metrics);
        return m.find() ? Optional.of(Double.parseDouble(m.group(1))) : Optional.empty();
    }

    private static double health(String metrics, String status) {
        return value(metrics, "waitroom_coordinator_booking_health", TAGS + ",status=\"" + status + "\"")
                .orElseThrow(() -> new AssertionError("no booking health series for " + status + " in\n" + metrics));
    }

    @Test
    void bookingHealthFollowsTheControllerOneStatusAtATime() {
        // a critical report: p95 far over the critical latency (3 s)
        this.scenario.rates.record(new HealthSample(this.scenario.now(), 1, 100, 9_000, 12_000, 0, 1, 0, 20, 0));
        this.gauges.refresh();
        String critical = scrape();
        assertThat(health(critical, "CRITICAL")).isEqualTo(1.0);
        for (String other : new String[] {"HEALTHY", "STRAINED", "DEGRADED", "STALE"}) {
            assertThat(health(critical, other)).as(other).isEqualTo(0.0);
        }

        // healthy windows after it (the smoothed latency comes down over a few): the gauge moves on at the next
        // refresh, not before
        for (int i = 0; i < 100 && this.scenario.rates.shopStatus() != HealthStatus.HEALTHY; i++) {
            this.scenario.clock.advance(Duration.ofMillis(500));
            this.scenario.healthy();
        }
        assertThat(this.scenario.rates.shopStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(health(scrape(), "CRITICAL"))
                .as("a scrape reads the last refresh, it computes nothing")
                .isEqualTo(1.0);
        this.gauges.refresh();
        String healthy = scrape();
        assertThat(health(healthy, "HEALTHY")).isEqualTo(1.0);
        assertThat(health(healthy, "CRITICAL")).isEqualTo(0.0);

        // no report for longer than stale-after (3 s): STALE
        this.scenario.clock.advance(Duration.ofSeconds(10));
        this.gauges.refresh();
        String stale = scrape();
        assertThat(health(stale, "STALE")).isEqualTo(1.0);
        assertThat(health(stale, "HEALTHY")).isEqualTo(0.0);
    }

    @Test
    void leaseGenerationCountsEveryChangeOfHandsPerEvent() {
        String moving = this.scenario.openNewEvent("lease-moves", config());
        String steady = this.scenario.openNewEvent("lease-steady", config());
        String forgotten = this.scenario.openNewEvent("lease-old", config());
        Duration lease = Duration.ofSeconds(5);

        assertThat(this.leases.acquireOrRenew(EventId.of(moving), "gauge-test-a", lease))
                .isPresent();
        for (int i = 0; i < 3; i++) {
            this.leases.acquireOrRenew(EventId.of(moving), "gauge-test-a", lease); // renewals keep the generation
        }
        this.leases.release(EventId.of(moving), "gauge-test-a");
        assertThat(this.leases.acquireOrRenew(EventId.of(moving), "gauge-test-b", lease))
                .isPresent();
        assertThat(this.leases.acquireOrRenew(EventId.of(moving), "gauge-test-a", lease))
                .as("b holds a live lease")
                .isEmpty();
        this.leases.release(EventId.of(moving), "gauge-test-b");
        long movingGeneration = this.leases
                .acquireOrRenew(EventId.of(moving), "gauge-test-a", lease)
                .orElseThrow()
                .value();
        assertThat(this.leases.acquireOrRenew(EventId.of(steady), "gauge-test-a", lease))
                .isPresent();
        // the same event in a region: its lease has a generation of its own
        Region west = new Region("west");
        assertThat(this.leases.acquireOrRenew(west, EventId.of(moving), "gauge-test-west", lease))
                .isPresent();
        assertThat(this.leases.acquireOrRenew(EventId.of(forgotten), "gauge-test-a", lease))
                .isPresent();
        // a lease that lapsed long ago: an event nobody leads any more
        this.jdbc
                .sql(
                        "update leases set expires_at = clock_timestamp() - make_interval(secs => :ago) where event_id = :e")
                .param("ago", this.properties.leaseQuietFor().toSeconds() + 60)
                .param("e", forgotten)
                .update();

        this.gauges.refresh();
        String metrics = scrape();
        assertThat(value(
                        metrics,
                        "waitroom_coordinator_lease_generation",
                        TAGS + ",event=\"" + moving + "\",region=\"\""))
                .as("acquired, taken over, taken back: three generations")
                .contains((double) movingGeneration)
                .contains(3.0);
        assertThat(value(
                        metrics,
                        "waitroom_coordinator_lease_generation",
                        TAGS + ",event=\"" + moving + "\",region=\"west\""))
                .as("the region's lease, apart from the central gate's")
                .contains(1.0);
        assertThat(value(
                        metrics,
                        "waitroom_coordinator_lease_generation",
                        TAGS + ",event=\"" + steady + "\",region=\"\""))
                .contains(1.0);
        assertThat(value(
                        metrics,
                        "waitroom_coordinator_lease_generation",
                        TAGS + ",event=\"" + forgotten + "\",region=\"\""))
                .as("an event whose lease lapsed over lease-quiet-for ago has no series")
                .isEmpty();

        // one more change of hands shows at the next refresh
        this.leases.release(EventId.of(moving), "gauge-test-a");
        this.leases.acquireOrRenew(EventId.of(moving), "gauge-test-b", lease);
        this.gauges.refresh();
        assertThat(value(
                        scrape(),
                        "waitroom_coordinator_lease_generation",
                        TAGS + ",event=\"" + moving + "\",region=\"\""))
                .contains(4.0);
    }

    @Test
    void signingKeyRetiresInCountsDownToTheMaxAgeAndToTheNextKeyDuringARotation() {
        this.keys.advance(); // finish any rotation another test left under way
        SigningKeyInfo active = this.keys.ring().keys().stream()
                .filter(k -> k.state() == KeyState.ACTIVE)
                .findFirst()
                .orElseThrow();
        Instant activated = active.activated() != null ? active.activated() : active.created();
        this.gauges.refresh();
        double expected = Duration.between(this.scenario.now(), activated.plus(this.properties.signingKeyMaxAge()))
                        .toMillis()
                / 1000.0;
        assertThat(value(scrape(), "waitroom_coordinator_signing_key_retires_in_seconds", TAGS))
                .as("the active key's activation plus the max age (90 days), from now")
                .contains(expected);
        assertThat(expected)
                .isPositive()
                .isLessThanOrEqualTo(Duration.ofDays(90).toSeconds());

        // a rotation under way: the active key stops signing when NEXT activates (publish-lead is 0 s in tests)
        this.keys.rotate();
        this.gauges.refresh();
        double duringRotation = value(scrape(), "waitroom_coordinator_signing_key_retires_in_seconds", TAGS)
                .orElseThrow();
        assertThat(duringRotation).isLessThanOrEqualTo(0.0).isGreaterThan(-60.0);

        // once NEXT signs, the countdown starts again from its activation
        this.keys.advance();
        this.gauges.refresh();
        assertThat(value(scrape(), "waitroom_coordinator_signing_key_retires_in_seconds", TAGS))
                .hasValueSatisfying(
                        v -> assertThat(v).isGreaterThan(Duration.ofDays(89).toSeconds()));
    }

    private static dev.waitroom.coordinator.event.EventConfig config() {
        return Scenario.config(
                4,
                2,
                2,
                60,
                120,
                600,
                dev.waitroom.contract.ExpiredOfferPolicy.REQUEUE_ONCE,
                dev.waitroom.contract.AfterPurchase.RELEASE);
    }
}
