package dev.waitroom.coordinator.tick;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventSchedules;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.grants.LiveCounts;
import dev.waitroom.coordinator.grants.Offering;
import dev.waitroom.coordinator.grants.QueueSync;
import dev.waitroom.coordinator.grants.SessionRegistry;
import dev.waitroom.coordinator.lanes.LaneCandidates;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.rate.RateBudget;
import dev.waitroom.coordinator.region.Allowance;
import dev.waitroom.coordinator.region.QueueDraw;
import dev.waitroom.coordinator.region.RegionalGate;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * One coordinator instance's work loop. Each tick, for every unfinished event: take or renew the event's lease; if
 * this instance leads it, open it when due, expire overdue offers and sessions, send the queue what it has not
 * acknowledged, offer {@code min(ceiling - live, rate budget, batch max)} candidates, and push the event state.
 * Several tickers (instances) may run against one database: the lease picks one leader per event and the fencing
 * generation in the allocation statement rejects a former leader's writes. Not thread-safe: one thread ticks it.
 */
public final class AdmissionTicker {

    private static final Logger log = LoggerFactory.getLogger(AdmissionTicker.class);

    private final CoordinatorProperties properties;

    private final Clock clock;

    private final LongSupplier nanoTime;

    private final Events events;

    private final Leases leases;

    private final Grants grants;

    private final Offering offering;

    private final Admissions admissions;

    private final QueueSync sync;

    private final QueueDirectory queue;

    private final EventManagement management;

    private final EventStatePublisher publisher;

    private final SessionRegistry registry;

    private final EventGauges gauges;

    private final RegionalGate gate;

    private final EventSchedules schedules;

    private final LaneCandidates lanes;

    private final Map<EventId, Leadership> led = new HashMap<>();

    AdmissionTicker(
            CoordinatorProperties properties,
            Clock clock,
            LongSupplier nanoTime,
            Events events,
            Leases leases,
            Grants grants,
            Offering offering,
            Admissions admissions,
            QueueSync sync,
            QueueDirectory queue,
            EventManagement management,
            EventStatePublisher publisher,
            SessionRegistry registry,
            EventGauges gauges,
            RegionalGate gate,
            EventSchedules schedules,
            LaneCandidates lanes) {
        this.properties = properties;
        this.clock = clock;
        this.nanoTime = nanoTime;
        this.events = events;
        this.leases = leases;
        this.grants = grants;
        this.offering = offering;
        this.admissions = admissions;
        this.sync = sync;
        this.queue = queue;
        this.management = management;
        this.publisher = publisher;
        this.registry = registry;
        this.gauges = gauges;
        this.gate = gate;
        this.schedules = schedules;
        this.lanes = lanes;
    }

    /**
     * Another coordinator instance over the same collaborators: its own lease owner, lease timing and monotonic clock,
     * and no leadership yet (tests play several instances in one process).
     */
    public AdmissionTicker asInstance(CoordinatorProperties instance, LongSupplier instanceNanoTime) {
        return new AdmissionTicker(
                instance,
                this.clock,
                instanceNanoTime,
                this.events,
                this.leases,
                this.grants,
                this.offering,
                this.admissions,
                this.sync,
                this.queue,
                this.management,
                this.publisher,
                this.registry,
                this.gauges,
                this.gate,
                this.schedules,
                this.lanes);
    }

    public String owner() {
        return this.properties.instanceId();
    }

    /** Runs one tick over every unfinished event; returns the number of offers made. */
    public int tick() {
        int offered = 0;
        List<Event> events;
        try {
            events = this.events.unfinished();
        } catch (DataAccessException ex) {
            log.warn(
                    "Tick skipped: Postgres unavailable ({})",
                    ex.getMostSpecificCause().getMessage());
            this.led.clear();
            return 0;
        }
        for (Event event : events) {
            try {
                offered += tick(event);
            } catch (CoordinatorException | DataAccessException ex) {
                log.warn("Tick of event {} failed: {}", event.id(), ex.getMessage());
            }
        }
        return offered;
    }

    /** One tick of one event; returns the number of offers made. */
    public int tick(Event event) {
        EventId id = event.id();
        Optional<Leadership> leadership = lead(id);
        if (leadership.isEmpty()) {
            return 0;
        }
        Leadership lead = leadership.get();
        Instant now = this.clock.instant();
        if (event.phase() == EventPhase.SCHEDULED
                && (event.config().opensAt() == null
                        || !event.config().opensAt().isAfter(now))) {
            event = this.management.open(event.id(), "coordinator", "opening time reached");
        } else if (event.phase() == EventPhase.OPEN && !event.drawn()) {
            event = this.management.completeDraw(event);
            lead.draw = event.drawn() ? QueueDraw.DRAWN : QueueDraw.PENDING;
        }
        event = this.schedules.apply(event, now);
        if (event.phase() == EventPhase.ENDED) {
            return 0;
        }
        if (this.gate.regional() && event.phase() == EventPhase.OPEN && event.drawn() && !lead.draw.done()) {
            lead.draw = this.gate.drawHere(event);
        } else if (this.gate.regional() && event.drawn() && lead.draw.done() && event.revealedSeed() == null) {
            // another region's queue had not drawn when this one did: reveal once it has
            // (docs/operating/regions.md#the-draw)
            event = this.management.queueDrawn(event);
        }
        this.admissions.expireOverdue(id, this.properties.expiryBatch());
        syncQueue(id);
        int offered = 0;
        LiveCounts live = this.grants.count(id);
        double rate = this.publisher.admissionRate(event);
        if (this.gate.regional() && lead.renewal == Renewal.DUE) {
            lead.renewal = Renewal.CURRENT;
            lead.allowance = this.gate.renew(id, owner(), lead.generation);
        }
        boolean planned = this.schedules.holdAt(event, now).isPresent();
        if (event.offering() && !planned && (lead.draw.done() || !this.gate.regional())) {
            offered = offer(event, lead, live, this.gate.regional() ? rate * lead.allowance.share() : rate, now);
            if (offered > 0) {
                live = this.grants.count(id);
            }
        }
        this.gauges.update(id, live.offered(), live.active(), event.config().maxActiveSessions(), rate, event.mode());
        this.gauges.heldByHealth(
                id,
                this.publisher.healthHold(event).map(AdmissionHold::causeValue).orElse(null));
        long nowNanos = this.nanoTime.getAsLong();
        if (lead.lastPush == null
                || nowNanos - lead.lastPush >= this.properties.pushEvery().toNanos()) {
            lead.lastPush = nowNanos;
            this.publisher.publishQuietly(event);
            measureDrift(id);
        }
        return offered;
    }

    private int offer(Event event, Leadership lead, LiveCounts live, double rate, Instant now) {
        int ceiling =
                this.gate.regional() ? lead.allowance.slots() : event.config().maxActiveSessions();
        int free = (int) Math.max(0, ceiling - live.live());
        int byRate = lead.budget.available(rate, now);
        int n = Math.min(free, Math.min(byRate, event.config().batchMax()));
        if (n <= 0) {
            return 0;
        }
        if (!this.registry.available()) {
            // Fail closed: no new admission while the session registry cannot be written.
            log.warn("No offers for event {}: the session registry is unavailable", event.id());
            return 0;
        }
        // the tick's n offers split among the event's lanes by their shares (docs/operating/lanes-and-access-codes.md)
        List<Candidate> candidates = this.lanes.candidates(event, n);
        if (candidates.isEmpty()) {
            return 0;
        }
        int made =
                this.offering.offer(event, owner(), lead.generation, candidates).size();
        lead.budget.spend(made);
        return made;
    }

    private void syncQueue(EventId id) {
        try {
            this.sync.reconcile(id, 200);
        } catch (CoordinatorException ex) {
            log.debug("Queue reconciliation for {} deferred: {}", id, ex.getMessage());
        }
    }

    private void measureDrift(EventId id) {
        try {
            QueueCounts counts = this.queue.counts(id);
            LiveCounts live = this.grants.countQueued(id);
            this.gauges.drift(
                    id, Math.abs(counts.offered() - live.offered()) + Math.abs(counts.active() - live.active()));
        } catch (CoordinatorException ex) {
            log.debug("Drift of {} not measured: {}", id, ex.getMessage());
        }
    }

    /** Takes or renews the lease when due; on a new generation (takeover) reconciles with the queue. */
    private Optional<Leadership> lead(EventId id) {
        Leadership current = this.led.get(id);
        long now = this.nanoTime.getAsLong();
        if (current != null
                && now - current.renewedAt < this.properties.renewEvery().toNanos()) {
            return Optional.of(current);
        }
        Optional<FencingGeneration> generation =
                this.leases.acquireOrRenew(id, owner(), this.properties.leaseDuration());
        if (generation.isEmpty()) {
            if (current != null) {
                log.info("Lost the lease of event {} (generation {})", id, current.generation.value());
                this.led.remove(id);
            }
            return Optional.empty();
        }
        if (current == null || !current.generation.equals(generation.get())) {
            log.info("Leading event {} with generation {}", id, generation.get().value());
            current = new Leadership(generation.get());
            this.led.put(id, current);
            reconcileOnTakeover(id);
        }
        current.renewedAt = now;
        current.renewal = Renewal.DUE;
        return Optional.of(current);
    }

    /** Counts come from the grants table, never from zero; the queue hears every outstanding offer again. */
    private void reconcileOnTakeover(EventId id) {
        try {
            this.sync.resendOffers(id);
        } catch (CoordinatorException ex) {
            log.debug("Offer resend for {} deferred: {}", id, ex.getMessage());
        }
    }

    /** Gives up every lease (shutdown), so another instance takes over at once. */
    public void resign() {
        this.led.keySet().forEach(id -> this.leases.release(id, owner()));
        this.led.clear();
    }

    /** Generation this ticker leads {@code eventId} with, if it does (for tests and the live view). */
    public Optional<FencingGeneration> generation(EventId eventId) {
        return Optional.ofNullable(this.led.get(eventId)).map(l -> l.generation);
    }

    /** Whether a regional gate's budget is due for renewal (its lease was renewed since) or current. */
    private enum Renewal {
        DUE,
        CURRENT
    }

    private static final class Leadership {

        final FencingGeneration generation;

        final RateBudget budget = new RateBudget();

        long renewedAt;

        /** Whether this gate has seen its own queue's pre-sale draw complete (a regional gate runs it itself). */
        QueueDraw draw = QueueDraw.PENDING;

        /** A regional gate renews its budget at the first tick after each renewal of its lease. */
        Renewal renewal = Renewal.DUE;

        /** A regional gate's budget of slots and share of the event's admission rate, as last renewed. */
        Allowance allowance = Allowance.NONE;

        Long lastPush;

        Leadership(FencingGeneration generation) {
            this.generation = generation;
        }
    }
}
