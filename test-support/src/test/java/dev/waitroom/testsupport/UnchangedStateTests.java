package dev.waitroom.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class UnchangedStateTests {

    private final AtomicInteger stored = new AtomicInteger();

    private final UnchangedState<Integer> guard = new UnchangedState<>(
            this.stored::get, (before, after) -> before.equals(after) ? "" : before + " -> " + after);

    private record Sent(String name, Runnable effect, List<Boolean> sendings) implements UnchangedState.Request {

        Sent(String name, Runnable effect) {
            this(name, effect, new ArrayList<>());
        }

        @Override
        public void send(boolean again, List<String> faults) {
            this.sendings.add(again);
            this.effect.run();
        }
    }

    @Test
    void aBatchThatChangesNothingIsSentOnceAndPasses() {
        Sent a = new Sent("a", () -> {});
        Sent b = new Sent("b", () -> {});
        List<String> faults = new ArrayList<>();

        this.guard.check("route", List.of(a, b), faults);

        assertThat(faults).isEmpty();
        assertThat(a.sendings()).containsExactly(false);
        assertThat(b.sendings()).containsExactly(false);
    }

    @Test
    void theRequestThatChangedTheStoreIsNamedWhenSentAgainAlone() {
        Sent quiet = new Sent("quiet", () -> {});
        Sent writer = new Sent("writer", this.stored::incrementAndGet);
        List<String> faults = new ArrayList<>();

        this.guard.check("route", List.of(quiet, writer), faults);

        assertThat(faults).containsExactly("writer: changed stored state: 1 -> 2");
        assertThat(quiet.sendings()).containsExactly(false, true);
        assertThat(writer.sendings()).containsExactly(false, true);
    }

    @Test
    void aChangeNoSingleRequestRepeatsNamesTheBatch() {
        AtomicInteger first = new AtomicInteger();
        Sent once = new Sent("once", () -> {
            if (first.getAndIncrement() == 0) {
                this.stored.incrementAndGet(); // a create that the second sending finds done
            }
        });
        List<String> faults = new ArrayList<>();

        this.guard.check("route", List.of(once), faults);

        assertThat(faults)
                .singleElement()
                .asString()
                .startsWith("route: 1 requests together changed stored state")
                .endsWith("0 -> 1");
    }
}
