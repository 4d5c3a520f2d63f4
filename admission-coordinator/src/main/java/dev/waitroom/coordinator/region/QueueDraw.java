package dev.waitroom.coordinator.region;

/**
 * Whether a gate has seen its own queue's pre-sale draw complete (docs/operating/regions.md#the-draw). A regional gate runs the
 * draw of its queue itself and offers nothing in the region before; {@code PENDING -> DRAWN}, never back.
 */
public enum QueueDraw {
    PENDING,
    DRAWN;

    public boolean done() {
        return this == DRAWN;
    }
}
