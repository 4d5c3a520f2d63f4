package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class BenchmarkRunTests {

    @Test
    void runsEveryIndexOnceAndPrintsOneLineOfFigures() throws Exception {
        Set<Integer> seen = ConcurrentHashMap.newKeySet();
        BenchmarkFigures figures =
                BenchmarkRun.calls("support.indices", 4, 1000, seen::add).add("note", "one line");

        assertThat(seen).hasSize(1000).contains(0, 999);
        assertThat(figures.get("requests")).isEqualTo(1000);
        assertThat(figures.get("threads")).isEqualTo(4);
        assertThat(figures.line())
                .startsWith("BENCH name=support.indices requests=1000 threads=4 seconds=")
                .contains(" rps=", " p50_ms=", " p99_ms=", " max_ms=")
                .endsWith(" note=one_line")
                .doesNotContain("\n");
    }

    @Test
    void aTimedRunStopsAtItsDuration() throws Exception {
        BenchmarkFigures figures = BenchmarkRun.forDuration("support.timed", 2, Duration.ofMillis(50), i -> {});

        assertThat((int) figures.get("requests")).isPositive();
    }

    @Test
    void theFirstFailingCallEndsTheRunAndIsRethrown() {
        assertThatThrownBy(() -> BenchmarkRun.calls("support.failing", 3, 1_000_000, i -> {
                    if (i == 10) {
                        throw new IllegalStateException("call " + i + " failed");
                    }
                }))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("call 10 failed");
    }

    @Test
    void percentilesAreNearestRank() {
        long[] sorted = new long[100];
        for (int i = 0; i < sorted.length; i++) {
            sorted[i] = i + 1;
        }
        assertThat(BenchmarkRun.percentile(sorted, 50)).isEqualTo(50);
        assertThat(BenchmarkRun.percentile(sorted, 99)).isEqualTo(99);
        assertThat(BenchmarkRun.percentile(new long[] {7}, 99)).isEqualTo(7);
        assertThat(BenchmarkRun.percentile(new long[0], 99)).isZero();
    }

    @Test
    void namesAndKeysAreSingleWords() {
        assertThatThrownBy(() -> BenchmarkFigures.named("two words")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BenchmarkFigures.named("ok").add("k=v", 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(BenchmarkFigures.named("ok")
                        .add("ratio", 0.5831)
                        .add("empty", "")
                        .line())
                .isEqualTo("BENCH name=ok ratio=0.58 empty=-");
    }
}
