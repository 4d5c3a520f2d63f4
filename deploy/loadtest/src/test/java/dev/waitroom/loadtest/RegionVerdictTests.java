package dev.waitroom.loadtest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The rehearsal spread over regions: which gateway each visitor uses, the budgets read, the per-region verdict. */
class RegionVerdictTests {

    /** Two regions, a visitor joined in each, six samples of budgets: r1 4 slots (2 used), r2 6 slots (3 used). */
    private static Ledger twoRegions(long r2Used) {
        Ledger ledger = new Ledger();
        for (int i = 0; i < 6; i++) {
            ledger.live(new Ledger.LiveSample(1000L * i, 1, 2, 3.0, "QUEUEING"));
            ledger.budgets(new Ledger.BudgetSample(
                    1000L * i, 10, 0, Map.of("r1", 4L, "r2", 6L), Map.of("r1", 2L, "r2", r2Used)));
        }
        for (String region : List.of("r1", "r2")) {
            ledger.outcome("joined");
            ledger.regionOutcome(region, "joined");
        }
        return ledger;
    }

    private static final Map<String, Map<String, Long>> ONE_WAITING_EACH = Map.of(
            "r1", Map.of("waiting", 1L, "joins", 1L),
            "r2", Map.of("waiting", 1L, "joins", 1L));

    private static final Map<String, Long> TOTAL = Map.of("waiting", 2L, "joins", 2L);

    @Test
    void passesWhenEveryRegionAccountsForItsVisitorsAndTheLedgerStaysWithinTheCeiling() {
        Verdict verdict = Verdict.of(twoRegions(3), VerdictTests.params(10), TOTAL, ONE_WAITING_EACH);
        assertThat(verdict.passed()).as(verdict.text()).isTrue();
        assertThat(verdict.text())
                .contains("region r1: no visitor lost", "region r2: no visitor lost", "ledger.maxLiveGrants");
    }

    @Test
    void failsWhenARegionLostAVisitorThoughTheTotalAddsUp() {
        Map<String, Map<String, Long>> counts = Map.of(
                "r1", Map.of("waiting", 2L, "joins", 1L),
                "r2", Map.of("joins", 1L));
        Verdict verdict = Verdict.of(twoRegions(3), VerdictTests.params(10), TOTAL, counts);
        assertThat(verdict.passed()).isFalse();
    }

    @Test
    void failsWhenTheRegionsTogetherHoldMoreThanTheCeiling() {
        // each region stays within its own budget's count, but 4 + 6 slots and 2 + 9 live grants against 10
        Verdict verdict = Verdict.of(twoRegions(9), VerdictTests.params(10), TOTAL, ONE_WAITING_EACH);
        assertThat(verdict.passed()).isFalse();
        assertThat(verdict.text()).contains("max 11");
        assertThat(Verdict.of(twoRegions(3), VerdictTests.params(9), TOTAL, ONE_WAITING_EACH)
                        .passed())
                .as("10 slots leased against a ceiling of 9")
                .isFalse();
    }

    @Test
    void failsWithoutBudgetSamples() {
        Ledger ledger = new Ledger();
        for (int i = 0; i < 6; i++) {
            ledger.live(new Ledger.LiveSample(1000L * i, 1, 2, 3.0, "QUEUEING"));
        }
        ledger.outcome("joined");
        ledger.regionOutcome("r1", "joined");
        ledger.outcome("joined");
        ledger.regionOutcome("r2", "joined");
        assertThat(Verdict.of(ledger, VerdictTests.params(10), TOTAL, ONE_WAITING_EACH)
                        .passed())
                .isFalse();
    }

    @Test
    void readsTheRegionsViewOfTheOpsApi() {
        String view = """
                {"event":"e","ceiling":20,"centralLive":1,"regions":[
                 {"region":"r1","slots":8,"used":5,"waiting":40,"generation":3,"owner":"host:1","leaseLive":true,
                  "draining":false,"frozen":false,"expiresAt":"2026-12-01T06:00:00Z"},
                 {"region":"r2","slots":0,"used":0,"waiting":12,"generation":2,"owner":null,"leaseLive":false,
                  "draining":false,"frozen":true,"expiresAt":null}]}""";
        Ledger.BudgetSample sample = OpsClient.budgets(view, 7);
        assertThat(sample.ceiling()).isEqualTo(20);
        assertThat(sample.centralLive()).isEqualTo(1);
        assertThat(sample.slots()).containsExactly(Map.entry("r1", 8L), Map.entry("r2", 0L));
        assertThat(sample.used()).containsExactly(Map.entry("r1", 5L), Map.entry("r2", 0L));
        assertThat(sample.totalUsed()).isEqualTo(5);
    }

    @Test
    void visitorsAreSpreadRoundRobinAndEachKeepsToOneRegion() {
        RegionGateways gateways = RegionGateways.layout("http://127.0.0.1:8080", 2);
        assertThat(gateways.names()).containsExactly("r1", "r2");
        assertThat(gateways.urls()).containsExactly("http://127.0.0.1:8080", "http://127.0.0.1:8180");
        assertThat(List.of(gateways.of(0), gateways.of(1), gateways.of(2), gateways.of(3)))
                .containsExactly(0, 1, 0, 1);
        assertThat(gateways.several()).isTrue();
        assertThatThrownBy(() -> new RegionGateways(List.of("r1"), List.of("http://example.com:8080")))
                .hasMessageContaining("loopback");
    }

    @Test
    void findsTheRegionsGatewaysInTheLaunchersProcessList() throws Exception {
        Path dir = Files.createTempDirectory("regions-stack");
        try {
            Path file = dir.resolve("stack.txt");
            Files.writeString(file, """
                    # written by ./waitroom run; read by ./waitroom status and stop
                    service gateway-service r1 101 18080 19080
                    service r2.gateway-service r2 102 18180 19180
                    service queue-service r1 103 18081 19081
                    service booking-service - 104 18083 19083
                    store redis-r2 r2 - 16380 -
                    """);
            RegionGateways gateways = RegionGateways.fromProcessList(file);
            assertThat(gateways.names()).containsExactly("r1", "r2");
            assertThat(gateways.urls()).containsExactly("http://127.0.0.1:18080", "http://127.0.0.1:18180");
            Files.writeString(file, "service gateway-service - 101 8080 9080\n");
            assertThat(RegionGateways.fromProcessList(file))
                    .as("a single-region stack")
                    .isNull();
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.delete(f);
                }
            }
            Files.delete(dir);
        }
    }
}
