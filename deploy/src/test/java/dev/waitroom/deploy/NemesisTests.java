package dev.waitroom.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chaos run's fault schedule is a function of its seed and the stack's shape (docs/operating/chaos.md#the-nemesis):
 * a failing seed replays the same faults at the same times on the same targets, which is what makes it a reproduction.
 * No stack is started: {@link Nemesis#plan} draws the schedule before anything is played.
 */
class NemesisTests {

    private static final List<String> PROCESSES = List.of(
            "queue-service",
            "admission-coordinator-1",
            "admission-coordinator-2",
            "booking-service",
            "gateway-service");
    private static final List<String> PROXIES = List.of("queue-service", "admission-coordinator");

    @Test
    void theSameSeedGivesTheSameSchedule() {
        List<Nemesis.Fault> first = Nemesis.plan(31, Duration.ofMinutes(2), PROCESSES, PROXIES);
        List<Nemesis.Fault> again = Nemesis.plan(31, Duration.ofMinutes(2), List.copyOf(PROCESSES), PROXIES);

        assertThat(first).isNotEmpty().isEqualTo(again);
        assertThat(first.stream().map(Nemesis.Fault::line).toList())
                .isEqualTo(again.stream().map(Nemesis.Fault::line).toList());
    }

    @Test
    void theOrderTheStackListsItsProcessesInDoesNotChangeTheSchedule() {
        List<String> processes = new java.util.ArrayList<>(PROCESSES);
        java.util.Collections.reverse(processes);
        List<String> proxies = new java.util.ArrayList<>(PROXIES);
        java.util.Collections.reverse(proxies);

        assertThat(Nemesis.plan(31, Duration.ofMinutes(2), processes, proxies))
                .isEqualTo(Nemesis.plan(31, Duration.ofMinutes(2), PROCESSES, PROXIES));
    }

    @Test
    void anotherSeedGivesAnotherSchedule() {
        assertThat(Nemesis.plan(32, Duration.ofMinutes(2), PROCESSES, PROXIES))
                .isNotEqualTo(Nemesis.plan(31, Duration.ofMinutes(2), PROCESSES, PROXIES));
    }

    @Test
    void aLongerRunKeepsTheShorterRunsScheduleAsItsBeginning() {
        List<Nemesis.Fault> two = Nemesis.plan(7, Duration.ofMinutes(2), PROCESSES, PROXIES);
        List<Nemesis.Fault> thirty = Nemesis.plan(7, Duration.ofMinutes(30), PROCESSES, PROXIES);

        assertThat(thirty).hasSizeGreaterThan(two.size() * 10).containsAll(two);
    }

    @Test
    void everyFaultIsOverBeforeTheEndAndPausesOutlastALease() {
        Duration run = Duration.ofMinutes(5);
        List<Nemesis.Fault> schedule = Nemesis.plan(99, run, PROCESSES, PROXIES);

        assertThat(schedule).isSortedAccordingTo(java.util.Comparator.comparingLong(Nemesis.Fault::atMillis));
        assertThat(schedule).allSatisfy(f -> {
            assertThat(f.atMillis()).isGreaterThanOrEqualTo(10_000);
            assertThat(f.atMillis() + f.forMillis()).isLessThan(run.toMillis());
        });
        assertThat(schedule)
                .filteredOn(f -> f.kind() == Nemesis.Kind.PAUSE)
                .isNotEmpty()
                .allSatisfy(f -> assertThat(f.forMillis()).isGreaterThan(5_000));
        assertThat(schedule.stream().map(Nemesis.Fault::kind).distinct())
                .as("five minutes play every kind of fault")
                .containsExactlyInAnyOrder(Nemesis.Kind.values());
    }

    @Test
    void aStackWithoutProxiesGetsNoNetworkFaults() {
        assertThat(Nemesis.plan(31, Duration.ofMinutes(10), PROCESSES, List.of()))
                .isNotEmpty()
                .noneMatch(f -> f.kind().network());
    }
}
