package dev.waitroom.coordinator.admission;

/** Why a grant stopped counting against the ceiling; each names the final state it leads to. */
public enum ReleaseReason {
    OFFER_EXPIRED(GrantState.OFFER_EXPIRED),
    SESSION_EXPIRED(GrantState.EXPIRED),
    LEFT(GrantState.RELEASED),
    PURCHASED(GrantState.COMPLETED),
    /** The queue could not apply the offer: the visitor had left the queue. */
    WITHDRAWN(GrantState.OFFER_EXPIRED);

    private final GrantState target;

    ReleaseReason(GrantState target) {
        this.target = target;
    }

    public GrantState target() {
        return this.target;
    }
}
