package dev.waitroom.queue.status;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.queue.config.QueueProperties;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.springframework.stereotype.Component;

/**
 * What visitors are told when the gate that admits them has gone silent (docs/operating/regions.md): the coordinator leading the
 * event pushes its state at least every few seconds; an open, queueing event whose state has not been pushed for
 * {@code waitroom.queue.gate-silence} is shown as PAUSED. Nobody is being admitted from this queue then (its
 * coordinator, or its region's gate, has stopped), so no progress or estimate is shown and the page says admission is
 * paused and the place is kept. The stored state is unchanged: joins, offers and the draw read it as pushed, and the
 * next push ends the silence.
 */
@Component
public class GateSilence {

    private final Duration after;

    private final Clock clock;

    GateSilence(QueueProperties properties, Clock clock) {
        this.after = properties.gateSilence();
        this.clock = clock;
    }

    /** The mode to show for an event in {@code phase} and pushed {@code mode}, last pushed at {@code pushedAt}. */
    public OperatingMode presented(EventPhase phase, OperatingMode mode, Instant pushedAt) {
        return silent(phase, mode, pushedAt) ? OperatingMode.PAUSED : mode;
    }

    /** True when an open, queueing event's gate has not pushed its state for longer than the setting (0: never). */
    public boolean silent(EventPhase phase, OperatingMode mode, Instant pushedAt) {
        return !this.after.isZero()
                && phase == EventPhase.OPEN
                && mode == OperatingMode.QUEUEING
                && pushedAt != null
                && pushedAt.plus(this.after).isBefore(this.clock.instant());
    }
}
