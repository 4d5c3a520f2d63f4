package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventLifecycle;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.routes.Protection;

/**
 * An event as stored: configuration plus sale state, and what it protects ({@code protect}, null: nothing;
 * docs/integration/gateway-in-front.md). {@code seed} is the opened seed (the row holds it sealed); {@code
 * seedPublished} whether it is public yet; {@code lifecycle} whether it is a draft, live or archived
 * (docs/operating/event-lifecycle.md). {@link #toString()} never shows the seed. */
public record Event(
        EventId id,
        EventConfig config,
        EventPhase phase,
        OperatingMode mode,
        long saleGeneration,
        String seed,
        String commitment,
        DrawState draw,
        boolean seedPublished,
        String announcement,
        Protection protect,
        EventLifecycle lifecycle) {

    /**
     * The seed once it is public, otherwise null: after the draw, and with regions only once every region's queue has
     * drawn (docs/operating/regions.md#the-draw).
     */
    public String revealedSeed() {
        return drawn() && this.seedPublished ? this.seed : null;
    }

    /** The pre-sale draw has run (the seed is revealed only then). */
    public boolean drawn() {
        return this.draw == DrawState.DRAWN;
    }

    public boolean offering() {
        return this.phase == EventPhase.OPEN && drawn() && this.mode.offers();
    }

    /** Whether the event is live: pushed to the queue, led, and in the route table (not a draft, not archived). */
    public boolean live() {
        return this.lifecycle.live();
    }

    @Override
    public String toString() {
        return "Event[id=" + this.id + ", phase=" + this.phase + ", mode=" + this.mode + ", saleGeneration="
                + this.saleGeneration + ", lifecycle=" + this.lifecycle + "]";
    }
}
