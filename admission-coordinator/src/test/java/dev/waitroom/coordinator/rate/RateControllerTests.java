package dev.waitroom.coordinator.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.testsupport.MutableClock;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The controller driven by recorded booking health traces (src/test/resources/health-traces) and a test clock. */
class RateControllerTests {

    private static final Instant START = Instant.parse("2026-06-01T10:00:00Z");

    private final MutableClock clock = new MutableClock(START);

    private final List<RateDecision> decisions = new ArrayList<>();

    private final RateController controller =
            RateController.of(RateControllerSettings.defaults(), this.clock, this.decisions::add);

    @Test
    void admitsAtTheStartingFactorBeforeAnyHealthIsMeasured() {
        this.clock.advance(Duration.ofMinutes(10));
        assertThat(this.controller.factor()).isEqualTo(0.2);
        assertThat(this.controller.view().status()).isEqualTo(HealthStatus.UNMEASURED);
        assertThat(this.controller.view().shopStatus()).isEqualTo(HealthStatus.STALE);
        assertThat(this.controller.view().edgeStatus()).isEqualTo(HealthStatus.UNMEASURED);
        assertThat(this.decisions).isEmpty();
    }

    @Test
    void healthySaleGrowsAdditivelyFromTheStartingFactorToFullRate() {
        List<Double> factors = replay("healthy-sale.csv");

        assertThat(this.decisions.get(0).kind()).isEqualTo(RateDecision.Kind.INCREASE);
        assertThat(this.decisions.get(0).factorBefore()).isEqualTo(0.2);
        for (int i = 1; i < factors.size(); i++) {
            assertThat(factors.get(i) - factors.get(i - 1)).as("never a jump").isLessThanOrEqualTo(0.2 + 1e-9);
        }
        assertThat(factors.get(factors.size() - 1)).isEqualTo(1.0);
        assertThat(this.decisions).extracting(RateDecision::kind).containsOnly(RateDecision.Kind.INCREASE);
    }

    @Test
    void oneSlowWindowIsSmoothedAway() {
        List<Double> factors = replay("single-spike.csv");

        assertThat(this.decisions)
                .extracting(RateDecision::kind)
                .doesNotContain(RateDecision.Kind.DECREASE, RateDecision.Kind.PAUSE);
        assertThat(factors.get(16)).isGreaterThanOrEqualTo(factors.get(14));
    }

    @Test
    void sustainedSlowdownCutsMultiplicativelyAndRecoversAdditively() {
        List<Double> factors = replay("db-slowdown.csv");

        double beforeSlowdown = factors.get(19);
        double lowest = factors.subList(20, 36).stream()
                .mapToDouble(Double::doubleValue)
                .min()
                .orElseThrow();
        assertThat(lowest).isLessThanOrEqualTo(beforeSlowdown / 4);
        assertThat(this.decisions).extracting(RateDecision::kind).contains(RateDecision.Kind.DECREASE);
        assertThat(this.decisions.stream().filter(d -> d.kind() == RateDecision.Kind.DECREASE))
                .allSatisfy(d -> assertThat(d.factorAfter())
                        .isCloseTo(Math.max(0.05, d.factorBefore() * 0.5), org.assertj.core.data.Offset.offset(1e-9)));
        // recovery is additive: at most one step per healthy streak
        for (int i = 36; i < factors.size(); i++) {
            assertThat(factors.get(i) - factors.get(i - 1)).isLessThanOrEqualTo(0.1 + 1e-9);
        }
        assertThat(factors.get(factors.size() - 1)).isGreaterThan(lowest);
    }

    @Test
    void criticalErrorsPauseAtOnceAndResumeGradually() {
        List<Double> factors = replay("payment-outage.csv");

        assertThat(factors.get(15)).as("the first critical window pauses").isZero();
        assertThat(factors.subList(15, 20)).containsOnly(0.0);
        RateDecision pause = this.decisions.stream()
                .filter(d -> d.kind() == RateDecision.Kind.PAUSE)
                .findFirst()
                .orElseThrow();
        assertThat(pause.status()).isEqualTo(HealthStatus.CRITICAL);
        RateDecision resume = this.decisions.stream()
                .filter(d -> d.kind() == RateDecision.Kind.RESUME && d.at().isAfter(pause.at()))
                .findFirst()
                .orElseThrow();
        assertThat(resume.factorAfter()).isEqualTo(0.2);
        assertThat(factors.get(factors.size() - 1)).isLessThan(1.0).isGreaterThan(0.2);
    }

    @Test
    void aRateInTheHysteresisBandHolds() {
        this.controller.record(sample(0, 50, 0));
        this.controller.record(sample(0, 50, 0));
        this.controller.record(sample(0, 50, 0));

        List<Double> factors = replay("hysteresis-band.csv");

        // Once the smoothed p95 has settled in the band (about ten windows), nothing moves the rate either way.
        assertThat(this.decisions)
                .filteredOn(d -> !d.at().isBefore(START.plusSeconds(10)))
                .isEmpty();
        assertThat(factors.subList(10, factors.size())).containsOnly(factors.get(10));
        assertThat(factors.get(10)).isPositive();
        assertThat(this.controller.view().status()).isEqualTo(HealthStatus.STRAINED);
    }

    @Test
    void aShopThatStopsReportingDropsOutWithoutPausing() {
        List<Double> factors = new ArrayList<>();
        for (double[] row : trace("silence.csv")) {
            if (row[0] == 20) {
                this.clock.advance(Duration.between(this.clock.instant(), START.plusSeconds(14)));
                factors.add(this.controller.factor());
                // a report from t=9 arriving now is too old to count
                this.controller.record(new HealthSample(START.plusSeconds(9), 1, 10, 9000, 9000, 0, 3, 0, 20, 0));
                factors.add(this.controller.factor());
            }
            factors.add(step(row));
        }
        assertThat(factors.get(9)).isPositive();
        assertThat(factors.get(10))
                .as("booking's silence is no reason to pause: the edge measures the shop")
                .isEqualTo(factors.get(9));
        assertThat(factors.get(11)).as("a late critical report does not count").isEqualTo(factors.get(9));
        assertThat(this.controller.view().shopStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(this.decisions).extracting(RateDecision::kind).doesNotContain(RateDecision.Kind.PAUSE);
    }

    @Test
    void healthyEdgeWindowsAloneRaiseTheFactorOfAShopThatReportsNothing() {
        for (int t = 0; t < 40; t++) {
            edge(t, 50, 0, 0, 20);
        }
        assertThat(this.controller.factor()).isEqualTo(1.0);
        assertThat(this.controller.view().edgeStatus()).isEqualTo(HealthStatus.HEALTHY);
        assertThat(this.controller.view().measuredBy()).isEqualTo("edge");
    }

    @Test
    void severalGatewaysWindowsOfOneSecondStepTheFactorOnce() {
        for (int t = 0; t < 6; t++) {
            for (int gateway = 0; gateway < 3; gateway++) {
                edge(t, 50, 0, 0, 20);
            }
        }
        assertThat(this.decisions)
                .as("six seconds of healthy windows: two increases, not six")
                .hasSize(2);
    }

    @Test
    void connectionErrorsAtTheEdgePauseAtOnceAndIdleWindowsProbeAgainAtTheResumeFactor() {
        for (int t = 0; t < 10; t++) {
            edge(t, 50, 0, 0, 20);
        }
        edge(10, 0, 0, 20, 20);
        assertThat(this.controller.factor()).isZero();
        assertThat(this.decisions.get(this.decisions.size() - 1).reason()).isEqualTo("critical edge health");

        // nobody is forwarded while paused; the gateways keep reporting, without a window of this event
        for (int t = 11; t < 16; t++) {
            advanceTo(t);
            this.controller.edgeIdle(START.plusSeconds(t));
        }
        assertThat(this.controller.factor()).as("a probe at the resume factor").isEqualTo(0.2);
        for (int t = 16; t < 60; t++) {
            advanceTo(t);
            this.controller.edgeIdle(START.plusSeconds(t));
        }
        assertThat(this.controller.factor())
                .as("idle windows never raise the factor")
                .isEqualTo(0.2);
    }

    @Test
    void oneStrayFailureOfAQuietSaleDoesNotPauseButAFewCarriedOverDo() {
        for (int t = 0; t < 10; t++) {
            edge(t, 50, 1, 0, 2);
        }
        assertThat(this.controller.factor()).isZero();

        RateController quiet = RateController.of(RateControllerSettings.defaults(), this.clock, d -> {});
        quiet.recordEdge(new EdgeSample(this.clock.instant(), 1, 2, 1, 0, 0, 50, 60));
        assertThat(quiet.factor()).as("one 502 of two requests is not evidence").isEqualTo(0.2);
    }

    @Test
    void theEdgeGoneAfterTrafficPausesAsStaleAndItsReturnResumes() {
        for (int t = 0; t < 10; t++) {
            edge(t, 50, 0, 0, 20);
        }
        assertThat(this.controller.factor()).isPositive();
        advanceTo(14);
        assertThat(this.controller.factor())
                .as("no gateway reported for 4 s after traffic")
                .isZero();
        assertThat(this.controller.view().status()).isEqualTo(HealthStatus.STALE);
        assertThat(this.decisions).extracting(RateDecision::reason).anyMatch(r -> r.startsWith("no edge health"));

        // a late window does not make the edge fresh
        this.controller.recordEdge(new EdgeSample(START.plusSeconds(9), 1, 20, 0, 0, 0, 50, 60));
        assertThat(this.controller.factor()).isZero();
        for (int t = 15; t < 20; t++) {
            advanceTo(t);
            this.controller.edgeIdle(START.plusSeconds(t));
        }
        assertThat(this.controller.factor()).isEqualTo(0.2);
    }

    @Test
    void theWorseOfShopAndEdgeDecides() {
        for (int t = 0; t < 10; t++) {
            edge(t, 50, 0, 0, 20);
            this.controller.record(sample(t, 1_200, 0));
        }
        assertThat(this.controller.view().shopStatus()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(this.controller.view().status()).isEqualTo(HealthStatus.DEGRADED);
        assertThat(this.decisions).extracting(RateDecision::kind).contains(RateDecision.Kind.DECREASE);
        assertThat(this.decisions)
                .filteredOn(d -> d.kind() == RateDecision.Kind.DECREASE)
                .extracting(RateDecision::reason)
                .containsOnly("degraded shop health");
    }

    private void advanceTo(long second) {
        Instant at = START.plusSeconds(second);
        if (at.isAfter(this.clock.instant())) {
            this.clock.advance(Duration.between(this.clock.instant(), at));
        }
    }

    private void edge(long second, double p95, long serverErrors, long connectionErrors, long requests) {
        advanceTo(second);
        this.controller.recordEdge(new EdgeSample(
                START.plusSeconds(second), 1, requests, serverErrors, 0, connectionErrors, p95, p95 * 1.5));
    }

    @Test
    void reportsOutOfOrderAreIgnored() {
        this.clock.advance(Duration.ofSeconds(10));
        this.controller.record(sample(10, 50, 0));
        this.controller.record(sample(5, 5000, 0.9));
        assertThat(this.controller.view().status()).isNotEqualTo(HealthStatus.CRITICAL);
    }

    private List<Double> replay(String name) {
        List<Double> factors = new ArrayList<>();
        for (double[] row : trace(name)) {
            factors.add(step(row));
        }
        return factors;
    }

    private double step(double[] row) {
        Instant at = START.plusSeconds((long) row[0]);
        if (at.isAfter(this.clock.instant())) {
            this.clock.advance(Duration.between(this.clock.instant(), at));
        }
        this.controller.record(new HealthSample(
                at, 1, 100, row[1], row[1] * 1.5, row[2], (int) row[3], (int) row[4], (int) row[5], row[6]));
        return this.controller.factor();
    }

    private HealthSample sample(long second, double p95, double errors) {
        return new HealthSample(START.plusSeconds(second), 1, 100, p95, p95, errors, 3, 0, 20, 0);
    }

    private static List<double[]> trace(String name) {
        try (InputStream in = RateControllerTests.class.getResourceAsStream("/health-traces/" + name)) {
            List<double[]> rows = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] cells = line.split(",");
                double[] row = new double[cells.length];
                for (int i = 0; i < cells.length; i++) {
                    row[i] = Double.parseDouble(cells[i].trim());
                }
                rows.add(row);
            }
            return rows;
        } catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
