package dev.waitroom.coordinator.ops;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.event.ModeChange;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.LiveCounts;
import dev.waitroom.coordinator.grants.ReleaseReason;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.RateController;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * The ops live view of an event: offered and active from the durable grants, waiting and oldest wait from the queue
 * service, and the drift between the queue's counters and the grants. Checkouts are purchases booking reported (the
 * grants' recorded purchases), not the queue's COMPLETED entries: a session a new round ended completes its queue
 * entry without a purchase, and is counted apart ({@code endedByNewRound}).
 */
@Component
class LiveView {

    private final Grants grants;

    private final Events events;

    private final QueueDirectory queue;

    private final EventStatePublisher publisher;

    private final EventRates rates;

    private final Leases leases;

    LiveView(
            Grants grants,
            Events events,
            QueueDirectory queue,
            EventStatePublisher publisher,
            EventRates rates,
            Leases leases) {
        this.grants = grants;
        this.events = events;
        this.queue = queue;
        this.publisher = publisher;
        this.rates = rates;
        this.leases = leases;
    }

    Live of(Event event) {
        EventId id = event.id();
        LiveCounts live = this.grants.count(id);
        QueueCounts counts = null;
        try {
            // a draft was never pushed and an archived event's keys are dropped: nothing to ask the queue
            counts = event.live() ? this.queue.counts(id) : null;
        } catch (CoordinatorException ex) {
            // Shown as unknown: the live view must still answer while the queue is down.
        }
        LiveCounts queued = counts == null ? null : this.grants.countQueued(id);
        Long drift = counts == null
                ? null
                : Math.abs(counts.offered() - queued.offered()) + Math.abs(counts.active() - queued.active());
        Leases.LeaseView lease = this.leases.current(id).orElse(null);
        Map<String, Long> released = this.grants.releasedByReason(id);
        return new Live(
                counts == null ? null : counts.waiting(),
                live.offered(),
                live.active(),
                this.publisher.admissionRate(event),
                this.rates.view(event.id()),
                event.mode().name(),
                event.phase().name(),
                counts == null ? null : counts.oldestWaitSeconds(),
                drift,
                counts != null,
                counts == null ? null : counts.abandoned(),
                this.grants.checkouts(id),
                released.getOrDefault(ReleaseReason.NEW_ROUND.name(), 0L),
                released,
                lease == null ? null : lease.owner(),
                lease == null ? null : lease.generation().value(),
                this.events.changes(event.id()),
                counts);
    }

    record Live(
            Long waiting,
            long offered,
            long active,
            double admissionRate,
            RateController.HealthView health,
            String mode,
            String phase,
            Long oldestWaitSeconds,
            Long drift,
            boolean queueReachable,
            Long abandoned,
            long checkouts,
            long endedByNewRound,
            Map<String, Long> releasedByReason,
            String leaseOwner,
            Long fencingGeneration,
            List<ModeChange> modeChanges,
            QueueCounts queue) {}
}
