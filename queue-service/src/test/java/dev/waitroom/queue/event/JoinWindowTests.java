package dev.waitroom.queue.event;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.queue.JoinGate;
import org.junit.jupiter.api.Test;

class JoinWindowTests {

    private static JoinWindow of(double rate) {
        return JoinWindow.of(new JoinGate(rate, 0)).orElseThrow();
    }

    @Test
    void noCeilingIsNoWindow() {
        assertThat(JoinWindow.of(JoinGate.OPEN)).isEmpty();
    }

    @Test
    void aCeilingOfOneOrMoreIsOneSecondOfItsWholePart() {
        assertThat(of(1)).isEqualTo(new JoinWindow(1, 1));
        assertThat(of(2.5)).isEqualTo(new JoinWindow(1, 2));
        assertThat(of(500)).isEqualTo(new JoinWindow(1, 500));
        assertThat(of(JoinGate.MAX_JOINS_PER_SECOND)).isEqualTo(new JoinWindow(1, 1_000_000));
    }

    @Test
    void aCeilingBelowOneIsOneEntryPerWindowLongEnoughForIt() {
        assertThat(of(0.5)).isEqualTo(new JoinWindow(2, 1));
        assertThat(of(0.25)).isEqualTo(new JoinWindow(4, 1));
        assertThat(of(0.3)).isEqualTo(new JoinWindow(4, 1));
        assertThat(of(0.05)).isEqualTo(new JoinWindow(20, 1));
        assertThat(of(0.000001).entries()).isEqualTo(1);
    }
}
