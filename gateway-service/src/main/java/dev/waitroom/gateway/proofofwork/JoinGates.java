package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.events.EventSnapshots;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The event's proof-of-work difficulty, from the edge snapshot ({@code QueueSnapshot.joinGate()}), so asking costs no
 * call of its own: the snapshot is refreshed at most once a second per event, and a join never waits for that refresh
 * when any snapshot is known ({@link EventSnapshots#latest}: the gate changes rarely, and awaiting a fresh waiting order
 * made joins wait for the queue-service's snapshot under load).
 *
 * <p>When no snapshot can be had (a queue-service down or slower than the gateway's upstream timeout before this
 * gateway ever read the event) the difficulty is {@link Gate.Unknowable}, never 0: the gate fails closed, as an
 * attacker who slows the queue-service down must not thereby switch the proof of work off. An event the queue-service
 * does not know is asked about again at each join ({@link EventSnapshots#latestAskingAgain}), so one created a moment
 * ago is found and its gate applied.
 */
@Component
class JoinGates {

    private final EventSnapshots snapshots;

    JoinGates(EventSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    Mono<Gate> proofOfWorkDifficulty(EventId event) {
        return snapshots
                .latestAskingAgain(event)
                .<Gate>map(
                        timed -> new Gate.Difficulty(timed.snapshot().joinGate().proofOfWorkDifficulty()))
                .switchIfEmpty(
                        Mono.fromSupplier(() -> snapshots.isUnknown(event) ? Gate.UNKNOWN_EVENT : Gate.UNKNOWABLE));
    }

    /** What the gateway knows of an event's join gate. */
    sealed interface Gate {

        Gate UNKNOWN_EVENT = new UnknownEvent();

        Gate UNKNOWABLE = new Unknowable();

        /** The event's difficulty, 0 when it has no gate. */
        record Difficulty(long value) implements Gate {}

        /** The queue-service said it has no such event. */
        record UnknownEvent() implements Gate {}

        /** No snapshot of the event could be had: its difficulty cannot be known. */
        record Unknowable() implements Gate {}
    }
}
