package dev.waitroom.coordinator.rate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.coordinator.support.MutableClock;
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
    void startsPausedUntilBookingReportsHealth() {
        assertThat(this.controller.factor()).isZero();
        assertThat(this.controller.view().status()).isEqualTo(HealthStatus.STALE);
    }

    @Test
    void healthySaleResumesLowThenGrowsAdditivelyToFullRate() {
        List<Double> factors = replay("healthy-sale.csv");

        assertThat(this.decisions.get(0).kind()).isEqualTo(RateDecision.Kind.RESUME);
        assertThat(this.decisions.get(0).factorAfter()).isEqualTo(0.2);
        for (int i = 1; i < factors.size(); i++) {
            assertThat(factors.get(i) - factors.get(i - 1)).as("never a jump").isLessThanOrEqualTo(0.2 + 1e-9);
        }
        assertThat(factors.get(factors.size() - 1)).isEqualTo(1.0);
        assertThat(this.decisions)
                .extracting(RateDecision::kind)
                .containsOnly(RateDecision.Kind.RESUME, RateDecision.Kind.INCREASE);
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
    void staleHealthPausesAndLateReportsDoNotRevive() {
        List<Double> factors = new ArrayList<>();
        for (double[] row : trace("silence.csv")) {
            if (row[0] == 20) {
                this.clock.advance(Duration.between(this.clock.instant(), START.plusSeconds(14)));
                factors.add(this.controller.factor());
                // a report from t=9 arriving now is too old to count
                this.controller.record(new HealthSample(START.plusSeconds(9), 1, 10, 50, 60, 0, 3, 0, 20, 0));
                factors.add(this.controller.factor());
            }
            factors.add(step(row));
        }
        assertThat(factors.get(9)).isPositive();
        assertThat(factors.get(10)).as("stale after 3 s of silence").isZero();
        assertThat(factors.get(11))
                .as("a late report does not make health fresh")
                .isZero();
        assertThat(this.decisions).extracting(RateDecision::reason).anyMatch(r -> r.startsWith("no booking health"));
        assertThat(factors.get(factors.size() - 1)).isPositive();
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
