package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.OfferBatch;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueRejectedException;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Tells the queue service what happened to grants, as an outbox: each grant remembers the state the queue has
 * acknowledged, every call is idempotent, and whatever was not acknowledged (a crash or a queue outage between the
 * Postgres commit and the call) is sent again by the leader's next tick.
 */
@Component
public class QueueSync {

    private static final Logger log = LoggerFactory.getLogger(QueueSync.class);

    private final Grants grants;

    private final QueueDirectory queue;

    private final AdmissionMetrics metrics;

    private final Clock clock;

    private final Region region;

    QueueSync(Grants grants, QueueDirectory queue, AdmissionMetrics metrics, Clock clock, Region region) {
        this.grants = grants;
        this.queue = queue;
        this.metrics = metrics;
        this.clock = clock;
        this.region = region;
    }

    /**
     * This gate's queue hears only of its own region's grants; another region's (a sold-out withdrawal, a claim that
     * reached this gate) stay unacknowledged for that region's gate to send (docs/operating/regions.md).
     */
    private boolean ours(Grant grant) {
        return this.region.equals(grant.region());
    }

    /** New offers of one event in one call. */
    void pushOffers(EventId eventId, List<Grant> offers) {
        offers = offers.stream().filter(this::ours).toList();
        if (offers.isEmpty()) {
            return;
        }
        try {
            offer(eventId, offers);
        } catch (QueueUnavailableException ex) {
            log.warn(
                    "Queue did not take {} offers for event {}; the next tick sends them again",
                    offers.size(),
                    eventId);
        }
    }

    /** Best effort: failures are left for {@link #reconcile}. */
    void pushQuietly(Grant grant) {
        if (!ours(grant)) {
            return;
        }
        try {
            push(grant);
        } catch (QueueUnavailableException ex) {
            log.debug("Queue sync of {} deferred: {}", grant, ex.getMessage());
        }
    }

    /**
     * Sends every unacknowledged grant state of an event; returns how many grants are now in sync. Outstanding offers
     * the queue has not acknowledged (new, or a deadline moved on by a pause) go in offer calls of up to
     * {@link OfferBatch#MAX_OFFERS}, the rest grant by grant.
     */
    public int reconcile(EventId eventId, int limit) {
        int done = 0;
        List<Grant> offers = new ArrayList<>();
        for (Grant grant : this.grants.unsynced(eventId, limit)) {
            if (grant.state() == GrantState.OFFERED && grant.queueSyncedState() == null) {
                offers.add(grant);
            } else {
                push(grant);
            }
            done++;
        }
        for (int from = 0; from < offers.size(); from += OfferBatch.MAX_OFFERS) {
            List<Grant> batch = offers.subList(from, Math.min(offers.size(), from + OfferBatch.MAX_OFFERS));
            try {
                offer(eventId, batch);
            } catch (QueueRejectedException ex) {
                // one refusal for the whole call: each grant on its own, so each gets its own answer
                batch.forEach(this::push);
            }
        }
        return done;
    }

    /** After a takeover: the queue hears every outstanding offer again (idempotent). */
    public void resendOffers(EventId eventId) {
        List<Grant> offered = this.grants.offered(eventId);
        // The queue takes at most OfferBatch.MAX_OFFERS per call; an event with a larger ceiling has more outstanding.
        for (int from = 0; from < offered.size(); from += OfferBatch.MAX_OFFERS) {
            offer(eventId, offered.subList(from, Math.min(offered.size(), from + OfferBatch.MAX_OFFERS)));
        }
    }

    /**
     * Tells the queue about offers and reads its answer: an entry that is no longer waiting (the visitor left the
     * queue between candidates and offer) cannot be offered, so its grant is withdrawn and the capacity returns.
     */
    private void offer(EventId eventId, List<Grant> offers) {
        List<OfferResult> results = this.queue.offer(
                eventId,
                offers.stream()
                        .map(g -> new QueueDirectory.Offer(g.entryId(), g.id(), g.offerExpiresAt()))
                        .toList());
        Map<String, String> stateByEntry = new HashMap<>();
        results.forEach(r -> stateByEntry.put(r.entryId(), r.state()));
        Instant now = this.clock.instant();
        for (Grant g : offers) {
            String state = stateByEntry.get(g.entryId().value());
            if (state == null || "OFFERED".equals(state) || "ACTIVE".equals(state)) {
                this.grants.markSynced(g.id(), GrantState.OFFERED);
            } else if (this.grants.withdraw(g.id(), now)) {
                log.info("Offer {} withdrawn: the queue entry is {}", g, state);
                this.metrics.released(eventId, ReleaseReason.WITHDRAWN);
            }
        }
    }

    private void push(Grant grant) {
        if (Grants.isPassSession(grant)) {
            // a pass's session has no queue entry (docs/operating/allow-rules-and-passes.md): nothing to tell
            this.grants.markSynced(grant.id(), grant.state());
            return;
        }
        for (GrantState step : path(grant)) {
            try {
                if (step == GrantState.OFFERED) {
                    offer(grant.eventId(), List.of(grant));
                    if (grant.state() == GrantState.OFFERED) {
                        continue; // offer() recorded the outcome (synced, or withdrawn)
                    }
                } else {
                    this.queue.transition(
                            grant.eventId(),
                            grant.entryId(),
                            step.queueTransition(grant.purchasedAt() != null, grant.releaseReason()),
                            grant.id());
                }
            } catch (QueueRejectedException ex) {
                // The queue refuses this step for good (e.g. it no longer knows the entry): retrying cannot help.
                log.warn("Queue rejected step {} of {}: {}", step, grant, ex.getMessage());
                this.metrics.queueSyncRejected(grant.eventId());
            }
            this.grants.markSynced(grant.id(), step);
        }
    }

    /** The queue-visible steps from the acknowledged state to the grant's current state. */
    static List<GrantState> path(Grant grant) {
        List<GrantState> steps = new ArrayList<>();
        GrantState from = grant.queueSyncedState();
        if (from == grant.state()) {
            return steps;
        }
        if (from == null) {
            steps.add(GrantState.OFFERED);
        }
        if ((from == null || from == GrantState.OFFERED) && grant.activatedAt() != null) {
            steps.add(GrantState.ACTIVE);
        }
        if (!grant.state().live()) {
            steps.add(grant.state());
        }
        return steps;
    }
}
