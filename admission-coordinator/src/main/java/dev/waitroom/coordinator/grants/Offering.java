package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Turns queue candidates into offers: one transaction locks the event row, then one statement checks the fencing
 * generation, the phase and mode, and the ceiling, and inserts the batch. Then the queue is told.
 */
@Component
public class Offering {

    private final Grants grants;

    private final QueueSync sync;

    private final AdmissionMetrics metrics;

    private final Clock clock;

    private final Region region;

    Offering(Grants grants, QueueSync sync, AdmissionMetrics metrics, Clock clock, Region region) {
        this.grants = grants;
        this.sync = sync;
        this.metrics = metrics;
        this.clock = clock;
        this.region = region;
    }

    /** Offers to {@code batch}, all or nothing; returns the offers made (empty if fenced off or over the ceiling). */
    public List<Grant> offer(Event event, String owner, FencingGeneration generation, List<Candidate> batch) {
        Instant now = this.clock.instant();
        Instant deadline = now.plus(event.config().offerTtl());
        List<Grant> offered = this.grants.allocate(this.region, event.id(), owner, generation, batch, now, deadline);
        this.metrics.offered(event.id(), offered.size());
        this.sync.pushOffers(event.id(), offered);
        return offered;
    }
}
