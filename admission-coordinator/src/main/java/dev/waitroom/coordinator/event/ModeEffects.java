package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import java.time.Duration;
import java.time.Instant;

/**
 * What a mode change does to the event's offers and sessions, which the admission package keeps
 * (docs/design/sale-rules/sold-out-pause-rounds.md). {@link EventManagement} calls the first two inside the transaction that
 * changes the mode, with the event row locked, so the offers change in the same step as the mode; the last two after
 * that transaction has committed, because they talk to the queue-service and the session registry.
 */
public interface ModeEffects {

    /** SOLD_OUT: withdraws every outstanding offer of the event; returns how many. In the mode's transaction. */
    int withdrawOffers(EventId id, Instant now);

    /** Leaving PAUSED: moves every outstanding offer's deadline on by {@code pause}. In the mode's transaction. */
    int extendOffers(EventId id, Duration pause);

    /** After a committed change: the queue hears what became of the offers (the outbox, sent now). */
    void tellQueue(EventId id);

    /**
     * After a new round committed: ends the shopping sessions of earlier sale generations (registry first, then the
     * capacity returns); the ticker does the same for any it finds later.
     */
    void endEarlierRounds(EventId id);

    /**
     * The event's offers and sessions still live (OFFERED or ACTIVE) in every region: an archive waits until none is
     * (docs/operating/event-lifecycle.md#archive). After the sale ended or before it opened no new one can appear.
     */
    long liveGrants(EventId id);
}
