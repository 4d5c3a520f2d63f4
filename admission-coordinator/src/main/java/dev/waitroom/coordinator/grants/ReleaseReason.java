package dev.waitroom.coordinator.grants;

/** Why a grant stopped counting against the ceiling; each names the final state it leads to. */
public enum ReleaseReason {
    OFFER_EXPIRED(GrantState.OFFER_EXPIRED),
    SESSION_EXPIRED(GrantState.EXPIRED),
    LEFT(GrantState.RELEASED),
    PURCHASED(GrantState.COMPLETED),
    /** The queue could not apply the offer: the visitor had left the queue. */
    WITHDRAWN(GrantState.OFFER_EXPIRED),
    /**
     * The offer was withdrawn in the step that declared the event sold out; the queue entry waits again in its place
     * (OFFER_WITHDRAWN).
     */
    SOLD_OUT(GrantState.OFFER_EXPIRED),
    /** A session of an earlier sale generation, ended when ops opened a new round; the queue entry ends COMPLETED. */
    NEW_ROUND(GrantState.RELEASED);

    private final GrantState target;

    ReleaseReason(GrantState target) {
        this.target = target;
    }

    public GrantState target() {
        return this.target;
    }
}
