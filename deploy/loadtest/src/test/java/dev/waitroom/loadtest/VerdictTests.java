package dev.waitroom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VerdictTests {

    private static LoadParameters params(int capacity) {
        return new LoadParameters(
                "http://127.0.0.1:8080",
                "t",
                "e",
                1,
                1,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                capacity,
                5,
                10,
                Duration.ofSeconds(1),
                0,
                0,
                0,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                100,
                Duration.ofSeconds(10),
                Path.of("target/x"));
    }

    private static Ledger healthyLedger() {
        Ledger ledger = new Ledger();
        for (int i = 0; i < 6; i++) {
            ledger.live(new Ledger.LiveSample(1000L * i, 1, 2, 3.0, "QUEUEING"));
        }
        ledger.outcome("joined");
        ledger.outcome("joined");
        ledger.sold(List.of("s1", "s2"));
        return ledger;
    }

    @Test
    void passesWhenEveryMustHolds() {
        Verdict verdict = Verdict.of(healthyLedger(), params(3), Map.of("waiting", 1L, "completed", 1L, "joins", 2L));
        assertThat(verdict.passed()).as(verdict.text()).isTrue();
        assertThat(verdict.json()).startsWith("{\"passed\":true");
    }

    @Test
    void failsWhenASeatIsSoldTwice() {
        Ledger ledger = healthyLedger();
        ledger.sold(List.of("s1"));
        assertThat(Verdict.of(ledger, params(3), Map.of("waiting", 2L, "joins", 2L))
                        .passed())
                .isFalse();
    }

    @Test
    void failsWhenLiveSessionsExceedTheCeiling() {
        assertThat(Verdict.of(healthyLedger(), params(2), Map.of("waiting", 2L, "joins", 2L))
                        .passed())
                .isFalse();
    }

    @Test
    void failsWhenAVisitorIsLost() {
        Verdict verdict = Verdict.of(healthyLedger(), params(3), Map.of("waiting", 1L, "joins", 2L));
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.text()).contains("joined 2 (queue counted 2), accounted 1");
        assertThat(Verdict.of(healthyLedger(), params(3), Map.of()).passed())
                .as("no counts is no proof")
                .isFalse();
    }

    @Test
    void percentilesAndPeaksComeFromTheTimings() {
        List<Ledger.Timing> timings = List.of(
                new Ledger.Timing("s", 1000, 5), new Ledger.Timing("s", 1500, 7), new Ledger.Timing("s", 2500, 100));
        assertThat(Verdict.percentile(timings, 0.5)).isEqualTo(7);
        assertThat(Verdict.percentile(timings, 0.99)).isEqualTo(100);
        assertThat(Verdict.peakPerSecond(timings)).isEqualTo(2);
    }

    @Test
    void picksASeatFromEitherResponseShape() {
        assertThat(OnSaleSimulation.pickSeat("{\"seats\":[{\"seatId\":\"a-1\"}]}"))
                .isEqualTo("a-1");
        assertThat(OnSaleSimulation.pickSeat("[{\"id\":\"b-2\",\"category\":\"x\"}]"))
                .isEqualTo("b-2");
        assertThat(OnSaleSimulation.pickSeat("{\"seats\":[]}")).isNull();
    }
}
