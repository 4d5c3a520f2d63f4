package dev.waitroom.testsupport.queue;

import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.queue.EntryId;
import java.time.Instant;
import java.util.EnumSet;
import java.util.Set;

/**
 * One queue entry of {@link FakeQueueService}: the visitor's place, its order key and state. A test reads it, or moves
 * it by hand as the coordinator would ({@link #leave}, {@link #expire}, {@link #withdrawOffer}, {@link #claim},
 * {@link #complete}); the fake's own changes hold the event's lock.
 */
public final class FakeQueueEntry {

    /** An entry's lifecycle, as the queue-service's {@code EntryState}: its transitions and nothing else. */
    public enum State {
        WAITING,
        OFFERED,
        ACTIVE,
        COMPLETED,
        EXPIRED,
        LEFT;

        /** OFFERED -> WAITING is the requeue of an expired offer or a withdrawn one; the last three are final. */
        public Set<State> next() {
            return switch (this) {
                case WAITING -> EnumSet.of(OFFERED, LEFT);
                case OFFERED -> EnumSet.of(ACTIVE, WAITING, EXPIRED);
                case ACTIVE -> EnumSet.of(COMPLETED, EXPIRED);
                case COMPLETED, EXPIRED, LEFT -> EnumSet.noneOf(State.class);
            };
        }

        public boolean canMoveTo(State target) {
            return next().contains(target);
        }
    }

    final String visitor;

    final EntryId entryId;

    final long sequence;

    final Instant joinedAt;

    volatile long orderKey;

    volatile State state = State.WAITING;

    /** The grant the queue last offered this entry; kept after the offer ends, as the real queue keeps it. */
    volatile String grantId;

    /** That offer's deadline; a re-sent offer of the same grant moves it later, never earlier. */
    volatile Instant offerExpiresAt;

    volatile int requeues;

    volatile int seen;

    /** The lane the entry stands in; the general lane unless an access code moved it. */
    volatile String lane = LaneName.GENERAL.value();

    FakeQueueEntry(String visitor, long sequence, long orderKey, Instant joinedAt) {
        this.visitor = visitor;
        this.entryId = EntryId.ofSequence(sequence);
        this.sequence = sequence;
        this.orderKey = orderKey;
        this.joinedAt = joinedAt;
    }

    /** The receipt, the base-36 join sequence. */
    public String entryId() {
        return entryId.value();
    }

    public String visitor() {
        return visitor;
    }

    public State state() {
        return state;
    }

    /** 0 for a pre-sale entry until the draw orders it. */
    public long orderKey() {
        return orderKey;
    }

    /** How often an expired offer sent it back to the queue. */
    public int requeues() {
        return requeues;
    }

    public Instant offerExpiresAt() {
        return offerExpiresAt;
    }

    public String lane() {
        return lane;
    }

    /** How often a liveness batch recorded this entry. */
    public int seen() {
        return seen;
    }

    public void leave() {
        state = State.LEFT;
    }

    /** As the coordinator's expiry would (DROP, or a second missed offer): the place has ended. */
    public void expire() {
        state = State.EXPIRED;
    }

    /** As the sell-out's withdrawal would (queue transition OFFER_WITHDRAWN): WAITING again, in the same place. */
    public void withdrawOffer() {
        state = State.WAITING;
        grantId = null;
        offerExpiresAt = null;
    }

    /** As the coordinator's claim would: OFFERED -> ACTIVE. */
    public void claim() {
        state = State.ACTIVE;
    }

    /** As a purchase completing would. */
    public void complete() {
        state = State.COMPLETED;
    }
}
