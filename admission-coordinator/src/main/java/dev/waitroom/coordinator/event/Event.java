package dev.waitroom.coordinator.event;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.OperatingMode;
import dev.waitroom.contract.routes.Protection;

/**
 * An event as stored: configuration plus sale state, and what it protects ({@code protect}, null: nothing;
 * docs/integration/gateway-in-front.md). {@link #toString()} never shows the seed. */
public record Event(
        EventId id,
        EventConfig config,
        EventPhase phase,
        OperatingMode mode,
        long saleGeneration,
        String seed,
        String commitment,
        DrawState draw,
        String announcement,
        Protection protect) {

    /** The seed once the draw has revealed it, otherwise null. */
    public String revealedSeed() {
        return drawn() ? this.seed : null;
    }

    /** The pre-sale draw has run (the seed is revealed only then). */
    public boolean drawn() {
        return this.draw == DrawState.DRAWN;
    }

    public boolean offering() {
        return this.phase == EventPhase.OPEN && drawn() && this.mode.offers();
    }

    @Override
    public String toString() {
        return "Event[id=" + this.id + ", phase=" + this.phase + ", mode=" + this.mode + ", saleGeneration="
                + this.saleGeneration + "]";
    }
}
