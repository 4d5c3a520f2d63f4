package dev.waitroom.coordinator.event;

import java.util.EnumSet;
import java.util.Set;

/**
 * The pre-sale draw of an event (docs/design/architecture.md#pre-sale-draw). PENDING from creation: the seed is secret, only
 * its commitment is published. DRAWN once the queue has ordered the pre-sale group with it: the seed is revealed and
 * offers may start. {@link Events} keeps it as the row's {@code seed_revealed_at} (null while pending).
 */
public enum DrawState {
    PENDING("DRAW_PENDING"),
    DRAWN("DRAWN");

    private final String audited;

    DrawState(String audited) {
        this.audited = audited;
    }

    public Set<DrawState> next() {
        return switch (this) {
            case PENDING -> EnumSet.of(DRAWN);
            case DRAWN -> EnumSet.noneOf(DrawState.class);
        };
    }

    public boolean canMoveTo(DrawState target) {
        return next().contains(target);
    }

    /** How the audit log ({@link ModeChange}) names this state. */
    String audited() {
        return this.audited;
    }
}
