package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.queue.AdmissionHold;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.Pace;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.RateController;
import dev.waitroom.tokens.ModeStatement;
import java.time.Clock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.stereotype.Component;

/** Pushes an event's public state to the queue service (on every change and, from the ticker, every few seconds). */
@Component
public class EventStatePublisher {

    private static final Logger log = LoggerFactory.getLogger(EventStatePublisher.class);

    /** After admissions resume, estimates say so (and are wider) this long. */
    static final java.time.Duration RESUMED_FOR = java.time.Duration.ofMinutes(2);

    private final QueueDirectory queue;

    private final EventRates rates;

    private final Events events;

    private final Publications publications;

    private final SoldOutCategories soldOut;

    private final SigningKeys keys;

    private final Clock clock;

    private final Schedules schedules;

    /** Events this instance knows the queue has accepted a state of: the publication is recorded once, not per push. */
    private final java.util.Set<EventId> published = java.util.concurrent.ConcurrentHashMap.newKeySet();

    EventStatePublisher(
            QueueDirectory queue,
            EventRates rates,
            Events events,
            Publications publications,
            SoldOutCategories soldOut,
            SigningKeys keys,
            Clock clock,
            Schedules schedules) {
        this.schedules = schedules;
        this.keys = keys;
        this.clock = clock;
        this.queue = queue;
        this.rates = rates;
        this.events = events;
        this.publications = publications;
        this.soldOut = soldOut;
    }

    /**
     * The pace visitors should expect, for the gateway's "near the front" bound, poll advice and, until the pace is
     * measured, the fast end of wait estimates: the rate in force, or the pace offers really went out at over the
     * last 30 s since admissions last started when that is slower (a full ceiling, not the rate, limits admission
     * then). Estimates built on the allowed rate alone were many times too optimistic; counting the 30 s across a
     * pause made them many times too pessimistic right after it.
     */
    public double expectedPace(Event event) {
        return expectedPace(event, pace(event));
    }

    double expectedPace(Event event, Pace pace) {
        double allowed = admissionRate(event);
        if (allowed <= 0) {
            return 0;
        }
        if (pace == null || pace.buckets() < Pace.RECENT_BUCKETS) {
            return allowed;
        }
        return Math.min(allowed, Math.max(pace.recentPerSecond(), 0.05));
    }

    /**
     * The measured offer pace the wait estimates come from (docs/design/estimates.md): offers per 5 s bucket since admissions
     * last started, the slowest pace a healthy sale runs at (the rate in force, or the ceiling over the longest a slot
     * stays taken: an unclaimed offer's TTL plus the longest session), and whether admissions resumed within
     * {@link #RESUMED_FOR}. Null before the opening or when the offers cannot be counted: the estimate then says it
     * is still measuring.
     */
    public Pace pace(Event event) {
        if (event.phase() != EventPhase.OPEN) {
            return null;
        }
        EventConfig c = event.config();
        double allowed = admissionRate(event);
        long slotSeconds = Math.max(1, c.offerTtl().toSeconds() + c.sessionMax().toSeconds());
        double floor = allowed > 0 ? Math.min(allowed, c.maxActiveSessions() / (double) slotSeconds) : 0;
        try {
            Events.OfferBuckets buckets = this.events.offerBuckets(event.id());
            boolean resumed =
                    buckets.resumedSecondsAgo() != null && buckets.resumedSecondsAgo() < RESUMED_FOR.toSeconds();
            return Pace.fromBuckets(withoutFill(buckets.counts()), floor, resumed);
        } catch (DataAccessException ex) {
            return null;
        }
    }

    /**
     * The counts without the fill at their start: when admissions start, the free ceiling is offered at once (at the
     * full rate), a burst that is not the pace sessions ending will set; measured with it, the pace and its variance
     * read several times too high for five minutes. Leading buckets above three times the median of the rest are
     * left out, only while the window still begins at the start (fewer than {@link Pace#WINDOW_BUCKETS} buckets).
     */
    static long[] withoutFill(long[] counts) {
        if (counts.length >= Pace.WINDOW_BUCKETS) {
            return counts;
        }
        int from = 0;
        while (counts.length - from > Pace.MIN_BUCKETS) {
            long[] rest = java.util.Arrays.copyOfRange(counts, from + 1, counts.length);
            java.util.Arrays.sort(rest);
            long median = rest[rest.length / 2];
            if (counts[from] <= 3 * Math.max(1, median)) {
                break;
            }
            from++;
        }
        return java.util.Arrays.copyOfRange(counts, from, counts.length);
    }

    /**
     * Why offers are held back now, as the page says it (docs/operating/schedules-and-pauses.md): a planned window
     * first, then the shop's health ({@link #healthHold}); empty when the event admits as configured or is not open.
     */
    public java.util.Optional<AdmissionHold> hold(Event event) {
        if (event.phase() != EventPhase.OPEN) {
            return java.util.Optional.empty();
        }
        java.util.Optional<AdmissionHold> planned =
                this.schedules.cached(event.id()).holdAt(this.clock.instant());
        return planned.isPresent() ? planned : healthHold(event);
    }

    /**
     * Whether the shop's health holds admission back: PAUSED while the rate controller has paused it (health critical
     * or stale), SLOWED while it admits below the configured maximum and health is not healthy now. The controller's
     * slow start and its climb back on healthy windows are not reported: nothing is wrong with the shop then. Only
     * while the event would otherwise offer.
     */
    public java.util.Optional<AdmissionHold> healthHold(Event event) {
        if (!event.offering()) {
            return java.util.Optional.empty();
        }
        RateController.HealthView view = this.rates.view(event.id());
        if (view.paused()) {
            return java.util.Optional.of(AdmissionHold.of(AdmissionHold.Cause.SHOP_PAUSED, null, null));
        }
        boolean unwell = switch (view.status()) {
            case STRAINED, DEGRADED, CRITICAL, STALE -> true;
            case HEALTHY, UNMEASURED -> false;
        };
        return unwell && view.factor() < 1
                ? java.util.Optional.of(AdmissionHold.of(AdmissionHold.Cause.SHOP_SLOWED, null, null))
                : java.util.Optional.empty();
    }

    /** The admission rate in force for this event now: its controller's factor times the configured maximum. */
    public double admissionRate(Event event) {
        return event.offering() ? this.rates.factor(event.id()) * event.config().maxAdmissionsPerSecond() : 0;
    }

    /**
     * Pushes the event's whole public state: its name and published rules, the sold-out seat categories as booking
     * last reported them, phase, mode and pace, and the mode signed ({@link ModeStatement}, living {@link
     * ModeStatement#DEFAULT_TTL}; re-signed at every push, at least every {@code push-every}): the gateway lets anyone
     * in on BYPASS only with a statement that verifies, so a queue-service told BYPASS by anyone else lets nobody in,
     * and a statement replayed after the bypass ended works at most until its expiry. Once the queue has accepted it the commitment and the rules are public,
     * recorded once per event ({@link #rulesPublished}).
     */
    public void publish(Event event) {
        if (!event.live()) {
            // a draft is unknown to the queue until published, an archived event's keys are dropped
            // (docs/operating/event-lifecycle.md)
            return;
        }
        EventConfig c = event.config();
        Pace pace = pace(event);
        java.util.List<String> soldOutCategories = this.soldOut.of(event.id());
        this.queue.putEventState(
                event.id(),
                EventUpdateRequest.of(
                                event.phase(),
                                event.mode(),
                                event.announcement(),
                                event.saleGeneration(),
                                event.commitment(),
                                event.revealedSeed(),
                                c.identityScope(),
                                c.expiredOfferPolicy(),
                                c.presaleOrdering(),
                                expectedPace(event, pace),
                                c.offerTtl().toSeconds(),
                                c.opensAt(),
                                c.joinGate(),
                                c.name(),
                                c.afterPurchase(),
                                soldOutCategories,
                                pace)
                        .withModeStatement(this.keys.signMode(ModeStatement.of(
                                event.id().value(), event.mode().name(), event.saleGeneration(), this.clock.instant())))
                        .withAdmissionHold(hold(event).orElse(null)));
        if (!this.published.contains(event.id())) {
            this.publications.markPublished(event.id());
            this.published.add(event.id());
        }
    }

    /**
     * Whether the event's draw commitment and its sale rules are public: the queue has accepted a push of its state
     * (at creation, unless the queue was unreachable then) or the sale has opened.
     */
    public boolean rulesPublished(Event event) {
        return event.phase() != EventPhase.SCHEDULED || this.publications.published(event.id());
    }

    /** Best effort; the ticker pushes again within seconds. */
    public void publishQuietly(Event event) {
        try {
            publish(event);
        } catch (QueueUnavailableException ex) {
            log.warn("Could not push the state of event {} to the queue: {}", event.id(), ex.getMessage());
        } catch (dev.waitroom.coordinator.queue.QueueRejectedException ex) {
            // The queue already holds a newer state (say the ticker opened the event while it was being created):
            // this push was stale, and the ticker pushes the current state within seconds.
            log.info("The queue kept a newer state of event {}: {}", event.id(), ex.getMessage());
        } catch (DataAccessException ex) {
            // the sold-out categories or the publication record could not be read or written: the change itself is
            // committed, and the ticker pushes again within seconds
            log.warn("Could not push the state of event {}: {}", event.id(), ex.getMessage());
        }
    }
}
