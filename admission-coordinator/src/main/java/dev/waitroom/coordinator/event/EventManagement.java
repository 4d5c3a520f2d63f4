package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.ProblemType;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.TextFields;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.routes.ProtectedPath;
import dev.waitroom.contract.routes.Protection;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.routes.RouteTablePublisher;
import dev.waitroom.coordinator.routes.Routes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Service;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Creates and configures events and moves their phase and mode. Every change is a conditional update in a
 * transaction holding the event row, audited with who and why, then pushed to the queue service.
 */
@Service
public class EventManagement {

    private static final Logger log = LoggerFactory.getLogger(EventManagement.class);

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The web kit's ops audit logger (its OpsTokenFilter's), so the fields a PATCH changed sit next to its line. */
    private static final Logger OPS_AUDIT = LoggerFactory.getLogger("dev.waitroom.web.OpsAudit");

    /** The longest reason of a phase or mode change, in characters. */
    public static final int MAX_REASON = 500;

    /** The longest announcement, in characters. */
    public static final int MAX_ANNOUNCEMENT = 500;

    /** What waiting visitors are told when ops open a new round without an announcement of their own. */
    public static final String NEW_ROUND_ANNOUNCEMENT = "Seats are back: a new round of the sale has started.";

    private final Events events;

    private final TransactionTemplate transactions;

    private final QueueDirectory queue;

    private final EventStatePublisher publisher;

    private final ModeEffects effects;

    private final Clock clock;

    private final Routes routes;

    private final RouteTablePublisher routeTable;

    private final Publications publications;

    EventManagement(
            Events events,
            TransactionTemplate transactions,
            QueueDirectory queue,
            EventStatePublisher publisher,
            ModeEffects effects,
            Clock clock,
            Routes routes,
            RouteTablePublisher routeTable,
            Publications publications) {
        this.publications = publications;
        this.routes = routes;
        this.routeTable = routeTable;
        this.events = events;
        this.transactions = transactions;
        this.queue = queue;
        this.publisher = publisher;
        this.effects = effects;
        this.clock = clock;
    }

    /** Creates an event protecting nothing but its waiting room (or the configured default origin's shop). */
    public Event create(EventId id, EventConfig config, String actor) {
        return create(id, config, this.routes.defaultFor(id), actor);
    }

    /**
     * Creates an event with a fresh secret draw seed and its published SHA-256 commitment, protecting {@code protect}
     * (null: nothing), checked against every live event's paths in the same transaction.
     */
    public Event create(EventId id, EventConfig config, Protection protect, String actor) {
        return create(id, config, protect, EventLifecycle.PUBLISHED, actor, created -> {});
    }

    /**
     * {@link #create(EventId, EventConfig, String)}, and {@code alongside} in the same transaction, before the rules
     * are published: what the event keeps beside its configuration (its lanes) is created with it or not at all.
     */
    public Event create(EventId id, EventConfig config, String actor, java.util.function.Consumer<EventId> alongside) {
        return create(id, config, this.routes.defaultFor(id), EventLifecycle.PUBLISHED, actor, alongside);
    }

    /**
     * Creates an event live ({@link EventLifecycle#PUBLISHED}, as {@link #create(EventId, EventConfig, Protection,
     * String)}) or as a {@link EventLifecycle#DRAFT} (docs/operating/event-lifecycle.md): a draft is never pushed to
     * the queue (so it takes no joins and its page answers 404 unknown-event) and protects nothing in the route table,
     * and its rules and protected paths may change until {@link #publish}.
     */
    public Event create(EventId id, EventConfig config, Protection protect, EventLifecycle lifecycle, String actor) {
        return create(id, config, protect, lifecycle, actor, created -> {});
    }

    /**
     * {@link #create(EventId, EventConfig, Protection, EventLifecycle, String)} with {@code alongside} in the same
     * transaction (the event's lanes).
     */
    public Event create(
            EventId id,
            EventConfig config,
            Protection protect,
            EventLifecycle lifecycle,
            String actor,
            java.util.function.Consumer<EventId> alongside) {
        if (lifecycle == EventLifecycle.ARCHIVED) {
            throw invalid("an event is created as a draft or published");
        }
        byte[] seed = new byte[32];
        RANDOM.nextBytes(seed);
        String seedHex = HexFormat.of().formatHex(seed);
        Event created = this.transactions.execute(status -> {
            if (!this.events.insert(id, config, seedHex, commitment(seedHex), lifecycle)) {
                throw new CoordinatorException(ProblemType.EVENT_EXISTS, "An event with id " + id + " already exists.");
            }
            this.routes.assign(id, protect);
            this.events.audit(
                    id,
                    ChangeKind.CONFIG,
                    null,
                    lifecycle == EventLifecycle.DRAFT ? "created as a draft" : "created",
                    actor,
                    "event created");
            alongside.accept(id);
            return this.events.find(id).orElseThrow();
        });
        log.info("Event {} created by {}{}", id, actor, created.live() ? "" : " as a draft");
        if (created.live()) {
            this.routeTable.publishQuietly();
            this.publisher.publishQuietly(created);
        }
        return created;
    }

    /**
     * Publishes a draft (docs/operating/event-lifecycle.md): it goes live, its rules freeze (as at the creation of a
     * live event), and what it protects is checked again against every live event's paths and enters the route table.
     * In one transaction holding the event's row, so a PATCH either came first and is published, or comes after and
     * finds the rules frozen. Publishing a published event changes nothing; an archived one is refused.
     */
    public Event publish(EventId id, String actor, String reason) {
        requireReason(reason);
        boolean[] changed = {false};
        Event published = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (current.lifecycle() == EventLifecycle.PUBLISHED) {
                return current;
            }
            if (!current.lifecycle().canMoveTo(EventLifecycle.PUBLISHED) || !this.events.publish(id)) {
                throw invalid("an " + current.lifecycle() + " event cannot be published");
            }
            this.routes.assign(id, current.protect());
            this.publications.markPublished(id);
            this.events.audit(
                    id, ChangeKind.CONFIG, EventLifecycle.DRAFT.name(), EventLifecycle.PUBLISHED.name(), actor, reason);
            changed[0] = true;
            return this.events.find(id).orElseThrow();
        });
        if (changed[0]) {
            OPS_AUDIT.info("Event {} published by {}: {}", id, actor, reason);
            this.routeTable.publishQuietly();
            this.publisher.publishQuietly(published);
        }
        return published;
    }

    /**
     * Archives an event whose sale has ended or never opened (docs/operating/event-lifecycle.md): it leaves the default
     * list, the route table and the ticker's events, its records stay, and the queue-service drops its keys (every
     * entry of a sale that never opened goes with them). The queue's drop runs inside the transaction, so an archive
     * the queue could not take (503 {@code queue-unavailable}) changes nothing and may simply be asked again.
     * Archiving an archived event changes nothing; an OPEN sale is refused (end it first), and so is an ended one while
     * shoppers admitted before the end are still inside (their sessions end by their own expiry).
     */
    public Event archive(EventId id, String actor, String reason) {
        requireReason(reason);
        boolean[] changed = {false};
        Event archived = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (current.lifecycle() == EventLifecycle.ARCHIVED) {
                return current;
            }
            if (current.phase() == EventPhase.OPEN) {
                throw invalid("the sale is OPEN: end it (POST /admin/events/" + id + "/end) before archiving");
            }
            long live = this.effects.liveGrants(id);
            if (live > 0) {
                throw invalid(live + " offers or shopping sessions of the event are still live: archive it once they"
                        + " have ended (at most sessionMaxSeconds after the end)");
            }
            if (!this.events.archive(id, current.lifecycle())) {
                throw invalid("the event changed concurrently");
            }
            this.events.audit(
                    id, ChangeKind.CONFIG, current.lifecycle().name(), EventLifecycle.ARCHIVED.name(), actor, reason);
            if (current.live()) {
                this.queue.dropEvent(id, false);
            }
            changed[0] = true;
            return this.events.find(id).orElseThrow();
        });
        if (changed[0]) {
            OPS_AUDIT.info("Event {} archived by {}: {}", id, actor, reason);
            this.routeTable.publishQuietly();
        }
        return archived;
    }

    /**
     * Deletes an event that never opened (docs/operating/event-lifecycle.md): a draft, or a published event still
     * SCHEDULED that nobody has joined and nothing was offered in; its rows go (the deletion is recorded in {@code
     * deleted_events}), its routes leave the table, and the queue-service drops its keys. For a published event the
     * queue checks that nobody joined and drops the event in one step, inside the transaction holding the event's row:
     * a join that came first makes the deletion 409 {@code invalid-transition} with nothing changed, a join that comes
     * after finds no event. Anything else is 409 {@code invalid-transition}.
     */
    public void delete(EventId id, String actor, String reason) {
        requireReason(reason);
        Event deleted = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (current.lifecycle() == EventLifecycle.ARCHIVED) {
                throw invalid("an archived event is kept; only an event that never opened is deleted");
            }
            if (current.phase() != EventPhase.SCHEDULED || this.events.everOffered(id)) {
                throw invalid("the sale of event " + id + " has opened (" + current.phase()
                        + "): it is kept; end and archive it instead");
            }
            if (current.live()) {
                try {
                    this.queue.dropEvent(id, true);
                } catch (dev.waitroom.coordinator.queue.QueueRejectedException ex) {
                    throw invalid("visitors have joined the queue of event " + id
                            + ": it is kept; end and archive it instead");
                }
            }
            this.events.delete(current, actor, reason);
            return current;
        });
        OPS_AUDIT.info("Event {} ({}) deleted by {}: {}", id, deleted.lifecycle(), actor, reason);
        log.info("Event {} deleted by {}: {}", id, actor, reason);
        if (deleted.live()) {
            this.routeTable.publishQuietly();
        }
    }

    /** What an event created without {@code protect} protects: its shop at the default origin, or nothing. */
    public Protection defaultProtection(EventId id) {
        return this.routes.defaultFor(id);
    }

    /** A change of what an event protects: {@code protection} null protects nothing. */
    public record Protect(Protection protection) {

        public static final Protect NOTHING = new Protect(null);
    }

    private static String describe(Protection p) {
        return p == null
                ? "none"
                : p.origin() + (p.host() == null ? "" : " (Host " + p.host() + ")") + " " + p.patterns()
                        + (p.allow().isEmpty() ? "" : " allow " + p.allowPatterns());
    }

    public Event get(EventId id) {
        return this.events.find(id).orElseThrow(() -> new EventNotFoundException(id));
    }

    /**
     * Records a change of the event's seller's page in its audit, in the caller's transaction
     * (docs/operating/the-sellers-page.md): a config change from the version it replaced to the new one.
     */
    public void auditPage(EventId id, long from, long to, String actor, String reason) {
        this.events.audit(
                id, ChangeKind.CONFIG, from == 0 ? "page none" : "page v" + from, "page v" + to, actor, reason);
        OPS_AUDIT.info("ops page event={} version={} actor={}", id, to, actor);
    }

    /**
     * Records a staff or partner pass issued or revoked in the event's audit, beside its mode and configuration changes
     * (docs/operating/allow-rules-and-passes.md): {@code what} names the pass and the change, never its secret.
     */
    public void auditPass(EventId id, String what, String actor, String reason) {
        this.events.audit(id, ChangeKind.CONFIG, null, "pass", actor, what + (reason == null ? "" : ": " + reason));
    }

    /**
     * Runs {@code change} in one transaction holding the event's row, refused with {@code rule-frozen} (naming
     * {@code rule}) once the event's rules are published or its sale opened, exactly as a {@link SaleRule}; then
     * audits it as a configuration change with who and why. For the rules kept beside the event's own configuration
     * (its lanes: docs/operating/lanes-and-access-codes.md).
     */
    public <T> T changeUnpublishedRule(
            EventId id,
            String rule,
            String description,
            String actor,
            String reason,
            java.util.function.Function<Event, T> change) {
        requireReason(reason);
        T result = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (this.publisher.rulesPublished(current)) {
                throw new RuleFrozenException(
                        rule,
                        current.phase() == EventPhase.SCHEDULED
                                ? "since the draw commitment was published with them"
                                : "since the sale opened");
            }
            T changed = change.apply(current);
            this.events.audit(id, ChangeKind.CONFIG, null, "updated", actor, rule + " " + description + ": " + reason);
            return changed;
        });
        OPS_AUDIT.info("Ops configuration of event {} by {}: {} {}", id, actor, rule, description);
        return result;
    }

    /**
     * Records an ops action on what an event keeps beside its configuration (access codes issued or revoked) in the
     * event's audit, with who and why, and in the ops audit log.
     */
    public void auditConfig(EventId id, String what, String actor, String reason) {
        this.events.audit(id, ChangeKind.CONFIG, null, what, actor, reason);
        OPS_AUDIT.info("Ops change of event {} by {}: {} ({})", id, actor, what, reason);
    }

    /** Records a region drained or resumed in the event's audit (docs/operating/regions.md). */
    public void auditRegion(EventId id, Region region, boolean draining, String actor, String reason) {
        this.events.audit(id, ChangeKind.REGION, region.name(), draining ? "DRAINING" : "RESUMED", actor, reason);
    }

    /**
     * Applies a configuration change as a whole or not at all. Once the event's commitment and rules are published or
     * the sale opened, a change of a {@link SaleRule} is refused ({@link RuleFrozenException}); sending a rule's
     * current value is no change. Every accepted change is audited with the fields it changed.
     */
    public Event reconfigure(EventId id, java.util.function.UnaryOperator<EventConfig> change, String actor) {
        return reconfigure(id, change, null, actor);
    }

    /**
     * {@link #reconfigure(EventId, java.util.function.UnaryOperator, String)}, and when {@code protect} is not null,
     * what the event protects too ({@link Protect#NOTHING} clears it), in the same transaction: a refused protection
     * applies nothing of the change. The gateways route by it within a couple of seconds.
     */
    public Event reconfigure(
            EventId id, java.util.function.UnaryOperator<EventConfig> change, Protect protect, String actor) {
        return reconfigure(id, change, protect, null, actor);
    }

    /**
     * {@link #reconfigure(EventId, java.util.function.UnaryOperator, Protect, String)}, and when {@code allow} is not
     * null, the event's allow rules too (docs/operating/allow-rules-and-passes.md; empty: none). A new {@code protect}
     * without {@code allow} keeps the allow rules, which must then fit the new paths ({@code bad-allow-rule}).
     */
    public Event reconfigure(
            EventId id,
            java.util.function.UnaryOperator<EventConfig> change,
            Protect requested,
            java.util.List<ProtectedPath> allow,
            String actor) {
        java.util.List<String> changes = new java.util.ArrayList<>();
        Event updated = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            if (current.lifecycle() == EventLifecycle.ARCHIVED) {
                throw invalid("an archived event does not change");
            }
            Protect protect = effective(current.protect(), requested, allow);
            EventConfig next = change.apply(current.config());
            java.util.List<SaleRule> rules = SaleRule.changed(current.config(), next);
            if (!rules.isEmpty() && this.publisher.rulesPublished(current)) {
                throw new RuleFrozenException(
                        rules,
                        current.phase() == EventPhase.SCHEDULED
                                ? "since the draw commitment was published with them"
                                : "since the sale opened");
            }
            changes.addAll(current.config().changesTo(next));
            if (protect != null && !java.util.Objects.equals(protect.protection(), current.protect())) {
                if (current.phase() == EventPhase.ENDED) {
                    throw invalid("an ended event protects nothing");
                }
                this.routes.assign(id, protect.protection());
                changes.add("protect " + describe(current.protect()) + " -> " + describe(protect.protection()));
            }
            this.events.updateConfig(id, next);
            this.events.audit(
                    id,
                    ChangeKind.CONFIG,
                    null,
                    "updated",
                    actor,
                    changes.isEmpty()
                            ? "configuration unchanged"
                            : "configuration changed: " + String.join(", ", changes));
            return this.events.find(id).orElseThrow();
        });
        OPS_AUDIT.info(
                "Ops configuration of event {} by {}: {}",
                id,
                actor,
                changes.isEmpty() ? "no field changed" : String.join(", ", changes));
        if (updated.live()) {
            if (requested != null || allow != null) {
                this.routeTable.publishQuietly();
            }
            this.publisher.publishQuietly(updated);
        }
        return updated;
    }

    /** What the event is to protect after a change of its protection, its allow rules, both or neither (null). */
    private static Protect effective(Protection current, Protect requested, java.util.List<ProtectedPath> allow) {
        if (requested == null && allow == null) {
            return null;
        }
        Protection paths = requested == null ? current : requested.protection();
        if (paths == null) {
            // protecting nothing any more takes the allow rules with it (an explicit non-empty allow is refused)
            return new Protect(Routes.withAllow(null, allow == null ? java.util.List.of() : allow));
        }
        java.util.List<ProtectedPath> rules =
                allow != null ? allow : current == null ? java.util.List.of() : current.allow();
        return new Protect(Routes.withAllow(paths, rules));
    }

    /**
     * Opens the sale: the phase becomes OPEN (the pre-sale group closes), then the draw runs (see
     * {@link #completeDraw}). If the queue cannot run the draw now, the event stays OPEN with its draw pending and
     * the ticker runs it again; nobody is offered anything before the draw has completed.
     */
    public Event open(EventId id, String actor, String reason) {
        requireReason(reason);
        Event event = get(id);
        requireLive(event, "opened");
        if (event.phase() != EventPhase.OPEN && !event.phase().canMoveTo(EventPhase.OPEN)) {
            throw invalid("phase " + event.phase() + " cannot move to OPEN");
        }
        if (event.phase() == EventPhase.SCHEDULED) {
            event = this.transactions.execute(status -> {
                if (this.events.open(id)) {
                    this.events.audit(
                            id, ChangeKind.PHASE, EventPhase.SCHEDULED.name(), EventPhase.OPEN.name(), actor, reason);
                    log.info("Event {} opened by {}: {}", id, actor, reason);
                }
                return this.events.find(id).orElseThrow();
            });
        }
        if (event.drawn()) {
            return event;
        }
        try {
            return completeDraw(event);
        } catch (CoordinatorException ex) {
            log.warn("Draw of event {} pending: {}", id, ex.getMessage());
            return get(id);
        }
    }

    /**
     * Runs the pre-sale draw through the queue with the committed seed, records it, and reveals the seed when no queue
     * can still take pre-sale entries. The queue first hears that the event is OPEN (its pre-sale group is closed; the
     * seed still secret), then runs the draw, which is deterministic and idempotent: a crash mid-way simply runs it
     * again with the same result. With one gate the seed is revealed at once; with regions once every region's queue
     * has drawn ({@link #queueDrawn}, docs/operating/regions.md#the-draw).
     */
    public Event completeDraw(Event event) {
        if (event.phase() != EventPhase.OPEN || !event.draw().canMoveTo(DrawState.DRAWN)) {
            return event;
        }
        DrawResult result = drawQueue(event);
        Event revealed = this.transactions.execute(status -> {
            if (this.events.markDrawn(event.id())) {
                this.events.recordQueueDrawn(event.id());
                boolean published = this.events.publishSeed(event.id());
                this.events.audit(
                        event.id(),
                        ChangeKind.PHASE,
                        DrawState.PENDING.audited(),
                        DrawState.DRAWN.audited(),
                        "coordinator",
                        "pre-sale draw of " + result.presaleCount() + " entries completed; "
                                + (published
                                        ? "seed revealed"
                                        : "seed revealed once every region's queue has drawn (waiting for "
                                                + String.join(", ", this.events.regionsNotDrawn(event.id())) + ")"));
            } else {
                recordAndPublish(event.id());
            }
            return this.events.find(event.id()).orElseThrow();
        });
        this.publisher.publishQuietly(revealed);
        return revealed;
    }

    /**
     * Records that this gate's queue has drawn the event's pre-sale group (a regional gate after {@link #drawQueue}, its
     * own queue's draw, when another region drew first) and reveals the seed if every region's queue now has; pushes the
     * event's state when it did. Idempotent.
     */
    public Event queueDrawn(Event event) {
        Event after = this.transactions.execute(status -> {
            recordAndPublish(event.id());
            return this.events.find(event.id()).orElseThrow();
        });
        if (after.revealedSeed() != null && event.revealedSeed() == null) {
            this.publisher.publishQuietly(after);
        }
        return after;
    }

    private void recordAndPublish(EventId id) {
        this.events.recordQueueDrawn(id);
        if (this.events.publishSeed(id)) {
            this.events.audit(
                    id,
                    ChangeKind.PHASE,
                    DrawState.DRAWN.audited(),
                    "SEED_REVEALED",
                    "coordinator",
                    "every region's queue has drawn: seed revealed");
            log.info("Event {}: every region's queue has drawn; seed revealed", id);
        }
    }

    /**
     * Runs the pre-sale draw on this coordinator's queue: the queue first hears that the event is open (its pre-sale
     * group closes), then runs the draw with the committed seed, deterministic and idempotent. {@link #completeDraw}
     * then records it and reveals the seed when every region's queue has drawn; a regional gate whose region's queue
     * was not the first drawn calls this, then {@link #queueDrawn} (docs/operating/regions.md).
     */
    public DrawResult drawQueue(Event event) {
        this.publisher.publish(event);
        return this.queue.draw(event.id(), event.seed());
    }

    /**
     * Ends the sale: no offer is made any more (every offer insert checks the phase), joins are refused by the queue,
     * and shoppers already inside finish under their session's own expiry. Ending twice is refused.
     */
    public Event end(EventId id, String actor, String reason) {
        requireReason(reason);
        Event ended = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            requireLive(current, "ended");
            if (!current.phase().canMoveTo(EventPhase.ENDED)) {
                throw invalid("phase " + current.phase() + " cannot move to ENDED");
            }
            if (!this.events.end(id, current.phase())) {
                throw invalid("the phase changed concurrently");
            }
            this.events.audit(id, ChangeKind.PHASE, current.phase().name(), EventPhase.ENDED.name(), actor, reason);
            log.info("Event {} ended by {}: {}", id, actor, reason);
            return this.events.find(id).orElseThrow();
        });
        // its paths leave the table: they pass through to the default origin, and may be protected by another event
        this.routeTable.publishQuietly();
        this.publisher.publishQuietly(ended);
        return ended;
    }

    /**
     * Moves the operating mode; a repeat of the current mode changes nothing. Every change is audited. In the same
     * transaction (docs/design/sale-rules/sold-out-pause-rounds.md): SOLD_OUT withdraws every outstanding offer; PAUSED
     * records when the pause began, and leaving PAUSED moves every outstanding offer's deadline on by the pause.
     * SOLD_OUT is left only through {@link #newRound}.
     */
    public Event changeMode(EventId id, OperatingMode target, String actor, String reason) {
        requireReason(reason);
        Instant now = this.clock.instant();
        Event changed = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            requireLive(current, "moved to " + target);
            if (current.mode() == target) {
                return current;
            }
            if (current.mode() == OperatingMode.SOLD_OUT) {
                throw invalid("mode SOLD_OUT is left only through a new round of the sale (POST /admin/events/" + id
                        + "/rounds)");
            }
            if (!current.mode().canMoveTo(target)) {
                throw invalid("mode " + current.mode() + " cannot move to " + target);
            }
            if (!this.events.changeMode(id, current.mode(), target)) {
                throw invalid("the mode changed concurrently");
            }
            if (current.mode() == OperatingMode.PAUSED) {
                Duration pause = this.events
                        .pausedAt(id)
                        .map(since -> Duration.between(since, now))
                        .filter(d -> !d.isNegative() && !d.isZero())
                        .orElse(Duration.ZERO);
                int held = pause.isZero() ? 0 : this.effects.extendOffers(id, pause);
                this.events.markPaused(id, null);
                log.info("Event {}: {} outstanding offers held through a pause of {}", id, held, pause);
            }
            if (target == OperatingMode.PAUSED) {
                this.events.markPaused(id, now);
            }
            if (target == OperatingMode.SOLD_OUT) {
                int withdrawn = this.effects.withdrawOffers(id, now);
                log.info("Event {} sold out: {} outstanding offers withdrawn", id, withdrawn);
            }
            this.events.audit(id, ChangeKind.MODE, current.mode().name(), target.name(), actor, reason);
            if (target == OperatingMode.BYPASS || current.mode() == OperatingMode.BYPASS) {
                log.warn(
                        "BYPASS {} for event {} by {}: {} -- the waiting room does not protect this event while on",
                        target == OperatingMode.BYPASS ? "ON" : "OFF",
                        id,
                        actor,
                        reason);
            } else {
                log.info("Event {} mode {} -> {} by {}: {}", id, current.mode(), target, actor, reason);
            }
            return this.events.find(id).orElseThrow();
        });
        this.publisher.publishQuietly(changed);
        this.effects.tellQueue(id);
        return changed;
    }

    /**
     * Opens a new round of the sale after SOLD_OUT, when seats have come back (docs/design/sale-rules/sold-out-pause-rounds.md):
     * the sale generation increments, the mode returns to QUEUEING, the announcement tells the waiting visitors
     * ({@code announcement}, or {@link #NEW_ROUND_ANNOUNCEMENT} when ops give none), and the push carries the new
     * generation. Tokens and sessions of the earlier generation stop working: the gateway and this coordinator refuse
     * their tokens, and their sessions end (registry first, then the capacity returns). Waiting visitors keep their
     * places. Refused (409 {@code invalid-transition}) unless the event is SOLD_OUT and has not ended.
     */
    public Event newRound(EventId id, String actor, String reason, String announcement) {
        requireReason(reason);
        String given =
                TextFields.optional(ProblemType.INVALID_ANNOUNCEMENT, "announcement", announcement, MAX_ANNOUNCEMENT);
        String text = given == null ? NEW_ROUND_ANNOUNCEMENT : given;
        Event opened = this.transactions.execute(status -> {
            Event current = this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            requireLive(current, "given a new round");
            if (current.phase() == EventPhase.ENDED) {
                throw invalid("the sale has ended: no new round");
            }
            if (current.mode() != OperatingMode.SOLD_OUT) {
                throw invalid("a new round opens only after SOLD_OUT; the event is " + current.mode());
            }
            if (!this.events.newRound(id, current.saleGeneration(), text)) {
                throw invalid("the event changed concurrently");
            }
            long round = current.saleGeneration() + 1;
            this.events.audit(
                    id,
                    ChangeKind.MODE,
                    OperatingMode.SOLD_OUT.name(),
                    OperatingMode.QUEUEING.name(),
                    actor,
                    "new round: sale generation " + round + ": " + reason);
            this.events.audit(id, ChangeKind.ANNOUNCEMENT, null, "set", actor, "announcement of round " + round);
            log.info("Event {}: new round, sale generation {}, opened by {}: {}", id, round, actor, reason);
            return this.events.find(id).orElseThrow();
        });
        this.publisher.publishQuietly(opened);
        this.effects.endEarlierRounds(id);
        return opened;
    }

    /** Ends bypass: back to QUEUEING; a no-op when the event is not in bypass. */
    public Event endBypass(EventId id, String actor, String reason) {
        requireReason(reason);
        Event current = get(id);
        if (current.mode() != OperatingMode.BYPASS) {
            return current;
        }
        return changeMode(id, OperatingMode.QUEUEING, actor, reason);
    }

    public Event announce(EventId id, String text, String actor) {
        String given = TextFields.optional(ProblemType.INVALID_ANNOUNCEMENT, "announcement", text, MAX_ANNOUNCEMENT);
        String clean = given == null ? "" : given;
        Event changed = this.transactions.execute(status -> {
            this.events.lock(id).orElseThrow(() -> new EventNotFoundException(id));
            this.events.changeAnnouncement(id, clean);
            this.events.audit(
                    id, ChangeKind.ANNOUNCEMENT, null, clean.isEmpty() ? "cleared" : "set", actor, "announcement");
            return this.events.find(id).orElseThrow();
        });
        this.publisher.publishQuietly(changed);
        return changed;
    }

    /** SHA-256 of the seed's bytes, hex: published before the draw so the revealed seed can be checked. */
    public static String commitment(String seedHex) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(HexFormat.of().parseHex(seedHex));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Every reason is audited and logged: one line of plain text (docs/design/security/input.md), checked here so
     * that each caller (ops, booking's sold-out signal) gets the same 400 and nothing reaches the database.
     */
    private static void requireReason(String reason) {
        TextFields.required("reason", reason, MAX_REASON);
    }

    /** A sale is run only on a live event: a draft is published first, an archived one is over. */
    private static void requireLive(Event event, String what) {
        if (!event.live()) {
            throw invalid(
                    event.lifecycle() == EventLifecycle.DRAFT
                            ? "a draft is not " + what + ": publish it first (POST /admin/events/"
                                    + event.id().value() + "/publish)"
                            : "an archived event is not " + what);
        }
    }

    private static CoordinatorException invalid(String message) {
        return new CoordinatorException(ProblemType.INVALID_TRANSITION, message);
    }
}
