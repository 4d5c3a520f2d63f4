package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.coordinator.event.ModeEffects;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/**
 * The grants' side of sold out, pause and sale rounds (docs/design/sale-rules/sold-out-pause-rounds.md), called by the event's
 * mode changes. What runs after the commit is best effort: the leader's ticker converges on the same result (the
 * outbox re-sends, expiry ends sessions of earlier rounds).
 */
@Component
class GrantModeEffects implements ModeEffects {

    private static final Logger log = LoggerFactory.getLogger(GrantModeEffects.class);

    /** Grants told to the queue, or sessions ended, per call after a commit; the ticker does the rest. */
    private static final int BATCH = 1000;

    private final Grants grants;

    private final Admissions admissions;

    private final QueueSync sync;

    private final AdmissionMetrics metrics;

    GrantModeEffects(Grants grants, Admissions admissions, QueueSync sync, AdmissionMetrics metrics) {
        this.grants = grants;
        this.admissions = admissions;
        this.sync = sync;
        this.metrics = metrics;
    }

    @Override
    public long liveGrants(EventId id) {
        return this.grants.liveInEveryRegion(id);
    }

    @Override
    public int withdrawOffers(EventId id, Instant now) {
        List<Grant> withdrawn = this.grants.withdrawAll(id, now);
        withdrawn.forEach(g -> this.metrics.released(g.eventId(), ReleaseReason.SOLD_OUT));
        return withdrawn.size();
    }

    @Override
    public int extendOffers(EventId id, Duration pause) {
        return this.grants.extendOffers(id, pause);
    }

    @Override
    public void tellQueue(EventId id) {
        try {
            this.sync.reconcile(id, BATCH);
        } catch (CoordinatorException | DataAccessException ex) {
            log.debug("Queue sync of event {} after a mode change deferred to the ticker: {}", id, ex.getMessage());
        }
    }

    @Override
    public void endEarlierRounds(EventId id) {
        try {
            int ended = this.admissions.endEarlierRounds(id, BATCH);
            log.info("Event {}: {} sessions of earlier rounds ended", id, ended);
        } catch (CoordinatorException | DataAccessException ex) {
            log.warn("Sessions of earlier rounds of event {} left to the ticker: {}", id, ex.getMessage());
        }
    }
}
