package dev.waitroom.gateway.proofofwork;

import dev.waitroom.contract.EventId;
import dev.waitroom.gateway.events.EventSnapshots;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * The event's proof-of-work difficulty, from the edge snapshot ({@code QueueSnapshot.joinGate()}), so asking costs no
 * call of its own: the snapshot is refreshed at most once a second per event, and a join never waits for that refresh
 * when any snapshot is known ({@link EventSnapshots#latest}: the gate changes rarely, and awaiting a fresh waiting order
 * made joins wait for the queue-service's snapshot under load). 0 when the event has no gate, and when
 * no snapshot is known (an unknown event, or a queue-service never reached): the join is then forwarded and answered
 * by the queue-service.
 */
@Component
class JoinGates {

    private final EventSnapshots snapshots;

    JoinGates(EventSnapshots snapshots) {
        this.snapshots = snapshots;
    }

    Mono<Long> proofOfWorkDifficulty(EventId event) {
        return snapshots
                .latest(event)
                .map(timed -> timed.snapshot().joinGate().proofOfWorkDifficulty())
                .defaultIfEmpty(0L);
    }
}
