package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.queue.TransitionTarget;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * Lifecycle of a grant (an offer and the shopping session it becomes). OFFERED and ACTIVE are live: they count
 * against the ceiling. Every other state is final.
 */
public enum GrantState {
    OFFERED,
    ACTIVE,
    OFFER_EXPIRED,
    EXPIRED,
    RELEASED,
    COMPLETED;

    /** The states that count against the ceiling. */
    public static final Set<GrantState> LIVE = Collections.unmodifiableSet(
            EnumSet.copyOf(Arrays.stream(values()).filter(GrantState::live).toList()));

    public Set<GrantState> next() {
        return switch (this) {
            case OFFERED -> EnumSet.of(ACTIVE, OFFER_EXPIRED);
            case ACTIVE -> EnumSet.of(EXPIRED, RELEASED, COMPLETED);
            case OFFER_EXPIRED, EXPIRED, RELEASED, COMPLETED -> EnumSet.noneOf(GrantState.class);
        };
    }

    public boolean live() {
        return this == OFFERED || this == ACTIVE;
    }

    public boolean canMoveTo(GrantState target) {
        return next().contains(target);
    }

    /**
     * The queue entry transition that mirrors reaching this state (OFFERED is told through the offers call). An offer
     * withdrawn because the event sold out gives the entry its place back (OFFER_WITHDRAWN: WAITING under the same
     * order key), so a new round offers it again in order: the expired-offer policy is for offers the visitor let
     * lapse, and the visitor did not.
     */
    TransitionTarget queueTransition(boolean purchased, ReleaseReason reason) {
        return switch (this) {
            case OFFERED -> throw new IllegalStateException("offers are told through the offers call");
            case ACTIVE -> TransitionTarget.ACTIVE;
            case OFFER_EXPIRED ->
                reason == ReleaseReason.SOLD_OUT ? TransitionTarget.OFFER_WITHDRAWN : TransitionTarget.OFFER_EXPIRED;
            case EXPIRED -> purchased ? TransitionTarget.COMPLETED : TransitionTarget.EXPIRED;
            case RELEASED, COMPLETED -> TransitionTarget.COMPLETED;
        };
    }
}
