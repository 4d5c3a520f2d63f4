package dev.waitroom.coordinator.tick;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.coordinator.admission.Admissions;
import dev.waitroom.coordinator.admission.Grants;
import dev.waitroom.coordinator.admission.LiveCounts;
import dev.waitroom.coordinator.admission.Offering;
import dev.waitroom.coordinator.admission.QueueSync;
import dev.waitroom.coordinator.admission.SessionRegistry;
import dev.waitroom.coordinator.event.Event;
import dev.waitroom.coordinator.event.EventManagement;
import dev.waitroom.coordinator.event.EventSchedules;
import dev.waitroom.coordinator.event.EventStatePublisher;
import dev.waitroom.coordinator.event.Events;
import dev.waitroom.coordinator.lanes.LaneCandidates;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.rate.RateBudget;
import dev.waitroom.coordinator.region.RegionBudgets;
import dev.waitroom.coordinator.region.RegionGauges;
import java.time.Clock;
import java.time.Duration;
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

    private final Parts parts;

    private final Clock clock;

    private final LongSupplier nanoTime;

    private final Map<String, Leadership> led = new HashMap<>();

    public AdmissionTicker(CoordinatorProperties properties, Parts parts, Clock clock, LongSupplier nanoTime) {
        this.properties = properties;
        this.parts = parts;
        this.clock = clock;
        this.nanoTime = nanoTime;
    }

    /** What a ticker works with; shared by every ticker of a process. */
    public record Parts(
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
            Regions regions,
            EventSchedules schedules,
            LaneCandidates lanes) {}

    /**
     * The region this ticker is the gate of, its budgets in the ledger and how long a stopped region's budget stays
     * frozen before this gate reconciles it (docs/regions.md).
     */
    public record Regions(Region region, RegionBudgets budgets, RegionGauges gauges, Duration grace) {}

    public String owner() {
        return this.properties.instanceId();
    }

    /** Runs one tick over every unfinished event; returns the number of offers made. */
    public int tick() {
        int offered = 0;
        List<Event> events;
        try {
            events = this.parts.events().unfinished();
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
        String id = event.id().value();
        Optional<Leadership> leadership = lead(id);
        if (leadership.isEmpty()) {
            return 0;
        }
        Leadership lead = leadership.get();
        Instant now = this.clock.instant();
        if (event.phase() == EventPhase.SCHEDULED
                && (event.config().opensAt() == null
                        || !event.config().opensAt().isAfter(now))) {
            event = this.parts.management().open(event.id(), "coordinator", "opening time reached");
        } else if (event.phase() == EventPhase.OPEN && !event.drawn()) {
            event = this.parts.management().completeDraw(event);
            lead.drawnHere = event.drawn();
        }
        event = this.parts.schedules().apply(event, now);
        if (event.phase() == EventPhase.ENDED) {
            return 0;
        }
        if (regional() && event.phase() == EventPhase.OPEN && event.drawn() && !lead.drawnHere) {
            lead.drawnHere = drawHere(event);
        } else if (regional() && event.drawn() && lead.drawnHere && event.revealedSeed() == null) {
            // another region's queue had not drawn when this one did: reveal once it has (docs/regions.md#the-draw)
            event = this.parts.management().queueDrawn(event);
        }
        this.parts.admissions().expireOverdue(id, this.properties.expiryBatch());
        syncQueue(id);
        int offered = 0;
        LiveCounts live = this.parts.grants().count(id);
        double rate = this.parts.publisher().admissionRate(event);
        if (regional() && lead.renewedBudget) {
            lead.renewedBudget = false;
            renewBudget(id, lead);
        }
        boolean planned = this.parts.schedules().holdAt(event, now).isPresent();
        if (event.offering() && !planned && (lead.drawnHere || !regional())) {
            offered = offer(event, lead, live, regional() ? rate * lead.share : rate, now);
            if (offered > 0) {
                live = this.parts.grants().count(id);
            }
        }
        this.parts
                .gauges()
                .update(id, live.offered(), live.active(), event.config().maxActiveSessions(), rate, event.mode());
        this.parts
                .gauges()
                .heldByHealth(
                        id,
                        this.parts
                                .publisher()
                                .healthHold(event)
                                .map(AdmissionHold::causeValue)
                                .orElse(null));
        long nowNanos = this.nanoTime.getAsLong();
        if (lead.lastPush == null
                || nowNanos - lead.lastPush >= this.properties.pushEvery().toNanos()) {
            lead.lastPush = nowNanos;
            this.parts.publisher().publishQuietly(event);
            measureDrift(id);
        }
        return offered;
    }

    /**
     * A regional gate runs the pre-sale draw of its own queue ({@link EventManagement#drawQueue}) even when another
     * region's gate has already drawn its queue, and records it: the seed is revealed once every region's queue has
     * drawn ({@link EventManagement#queueDrawn}, docs/regions.md#the-draw). Nothing is offered in the region before.
     */
    private boolean drawHere(Event event) {
        try {
            this.parts.management().drawQueue(event);
            this.parts.management().queueDrawn(event);
            log.info(
                    "Event {}: pre-sale draw of region {}'s queue completed",
                    event.id(),
                    this.parts.regions().region());
            return true;
        } catch (CoordinatorException ex) {
            log.warn(
                    "Event {}: draw of region {}'s queue pending: {}",
                    event.id(),
                    this.parts.regions().region(),
                    ex.getMessage());
            return false;
        }
    }

    private boolean regional() {
        return this.parts.regions().region().regional();
    }

    /**
     * A regional gate, each time it renews its lease: ends the overdue grants of frozen regions and shrinks their
     * budgets (reconciliation), then renews its own budget by the rule, reporting its queue's waiting count.
     */
    private void renewBudget(String id, Leadership lead) {
        Regions regions = this.parts.regions();
        RegionBudgets.Ledger ledger = regions.budgets().read(id, regions.grace());
        boolean shrink = false;
        for (RegionBudgets.Budget budget : ledger.budgets()) {
            if (budget.frozen() && !budget.region().equals(regions.region().name())) {
                if (budget.live() > 0) {
                    this.parts.admissions().expireFrozenRegion(id, budget.region());
                }
                shrink |= budget.slots() > 0;
            }
        }
        if (shrink) {
            List<String> reconciled = regions.budgets().reconcileFrozen(regions.region(), id, regions.grace());
            if (!reconciled.isEmpty()) {
                log.info("Event {}: budgets of stopped regions {} reconciled to their live grants", id, reconciled);
            }
            ledger = regions.budgets().read(id, regions.grace());
        }
        regions.gauges().update(id, ledger);
        long waiting;
        try {
            waiting = this.parts.queue().counts(id).waiting();
        } catch (CoordinatorException ex) {
            waiting = ledger.of(regions.region().name())
                    .map(RegionBudgets.Budget::waiting)
                    .orElse(0L);
        }
        Optional<RegionBudgets.Renewal> renewal =
                regions.budgets().renew(regions.region(), id, owner(), lead.generation, waiting, regions.grace());
        if (renewal.isEmpty()) {
            log.info("Event {}: budget of region {} not renewed (fenced off)", id, regions.region());
            lead.slots = 0;
            lead.share = 0;
            return;
        }
        lead.slots = renewal.get().slots();
        lead.share = renewal.get().share();
    }

    private int offer(Event event, Leadership lead, LiveCounts live, double rate, Instant now) {
        int ceiling = regional() ? lead.slots : event.config().maxActiveSessions();
        int free = (int) Math.max(0, ceiling - live.live());
        int byRate = lead.budget.available(rate, now);
        int n = Math.min(free, Math.min(byRate, event.config().batchMax()));
        if (n <= 0) {
            return 0;
        }
        if (!this.parts.registry().available()) {
            // Fail closed: no new admission while the session registry cannot be written.
            log.warn("No offers for event {}: the session registry is unavailable", event.id());
            return 0;
        }
        // the tick's n offers split among the event's lanes by their shares (docs/operating/lanes-and-access-codes.md)
        List<Candidate> candidates = this.parts.lanes().candidates(event, n);
        if (candidates.isEmpty()) {
            return 0;
        }
        int made = this.parts
                .offering()
                .offer(event, owner(), lead.generation, candidates)
                .size();
        lead.budget.spend(made);
        return made;
    }

    private void syncQueue(String id) {
        try {
            this.parts.sync().reconcile(id, 200);
        } catch (CoordinatorException ex) {
            log.debug("Queue reconciliation for {} deferred: {}", id, ex.getMessage());
        }
    }

    private void measureDrift(String id) {
        try {
            QueueCounts counts = this.parts.queue().counts(id);
            LiveCounts live = this.parts.grants().countQueued(id);
            this.parts
                    .gauges()
                    .drift(id, Math.abs(counts.offered() - live.offered()) + Math.abs(counts.active() - live.active()));
        } catch (CoordinatorException ex) {
            log.debug("Drift of {} not measured: {}", id, ex.getMessage());
        }
    }

    /** Takes or renews the lease when due; on a new generation (takeover) reconciles with the queue. */
    private Optional<Leadership> lead(String id) {
        Leadership current = this.led.get(id);
        long now = this.nanoTime.getAsLong();
        if (current != null
                && now - current.renewedAt < this.properties.renewEvery().toNanos()) {
            return Optional.of(current);
        }
        Optional<FencingGeneration> generation =
                this.parts.leases().acquireOrRenew(id, owner(), this.properties.leaseDuration());
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
        current.renewedBudget = true;
        return Optional.of(current);
    }

    /** Counts come from the grants table, never from zero; the queue hears every outstanding offer again. */
    private void reconcileOnTakeover(String id) {
        try {
            this.parts.sync().resendOffers(id);
        } catch (CoordinatorException ex) {
            log.debug("Offer resend for {} deferred: {}", id, ex.getMessage());
        }
    }

    /** Gives up every lease (shutdown), so another instance takes over at once. */
    public void resign() {
        this.led.keySet().forEach(id -> this.parts.leases().release(id, owner()));
        this.led.clear();
    }

    /** Generation this ticker leads {@code eventId} with, if it does (for tests and the live view). */
    public Optional<FencingGeneration> generation(String eventId) {
        return Optional.ofNullable(this.led.get(eventId)).map(l -> l.generation);
    }

    private static final class Leadership {

        final FencingGeneration generation;

        final RateBudget budget = new RateBudget();

        long renewedAt;

        /** Whether this gate has seen its own queue's pre-sale draw complete (a regional gate runs it itself). */
        boolean drawnHere;

        /** Set at each lease renewal: a regional gate renews its budget then. */
        boolean renewedBudget;

        /** A regional gate's budget of slots and share of the event's admission rate, as last renewed. */
        int slots;

        double share;

        Long lastPush;

        Leadership(FencingGeneration generation) {
            this.generation = generation;
        }
    }
}
