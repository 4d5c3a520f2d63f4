package dev.waitroom.coordinator.event;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.coordinator.queue.QueueDirectory;
import dev.waitroom.coordinator.queue.QueueUnavailableException;
import dev.waitroom.coordinator.rate.RateController;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/** Pushes an event's public state to the queue service (on every change and, from the ticker, every few seconds). */
@Component
public class EventStatePublisher {

    private static final Logger log = LoggerFactory.getLogger(EventStatePublisher.class);

    private final QueueDirectory queue;

    private final RateController rates;

    private final Events events;

    EventStatePublisher(QueueDirectory queue, RateController rates, Events events) {
        this.queue = queue;
        this.rates = rates;
        this.events = events;
    }

    /**
     * The pace visitors should expect, for wait estimates and for the gateway's "near the front" bound: the rate in
     * force, or the pace offers really went out at over the last 30 s when that is slower (a full ceiling, not the
     * rate, limits admission then). Estimates built on the allowed rate alone were many times too optimistic.
     */
    public double expectedPace(Event event) {
        double allowed = admissionRate(event);
        if (allowed <= 0) {
            return 0;
        }
        try {
            java.util.OptionalDouble pace = this.events.offerPace(event.id(), java.time.Duration.ofSeconds(30));
            return pace.isPresent() ? Math.min(allowed, Math.max(pace.getAsDouble(), 0.05)) : allowed;
        } catch (RuntimeException ex) {
            return allowed;
        }
    }

    /** The admission rate in force for this event now: the controller's factor times the configured maximum. */
    public double admissionRate(Event event) {
        return event.offering() ? this.rates.factor() * event.config().maxAdmissionsPerSecond() : 0;
    }

    public void publish(Event event) {
        EventConfig c = event.config();
        this.queue.putEventState(
                event.id().value(),
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
                        expectedPace(event),
                        c.offerTtl().toSeconds(),
                        c.opensAt(),
                        c.joinGate(),
                        null,
                        AfterPurchase.DEFAULT,
                        null));
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
        }
    }
}
