package dev.waitroom.coordinator.queue;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.queue.DrawResult;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.contract.queue.EventUpdateRequest;
import dev.waitroom.contract.queue.LaneMoveResult;
import dev.waitroom.contract.queue.OfferResult;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.contract.queue.TransitionTarget;
import dev.waitroom.coordinator.ids.GrantId;
import dev.waitroom.tokens.VisitorId;
import java.time.Instant;
import java.util.List;

/**
 * The queue-service as the coordinator sees it (docs/reference/contracts.md, "queue-service internal API"), in the contract's
 * records ({@code dev.waitroom.contract.queue}), except that entry ids, a candidate's visitor and an offer's grant
 * arrive and leave typed: {@link EntryId} and the coordinator's own identifiers ({@link Candidate}, {@link Offer}); the
 * HTTP adapter converts. Every call
 * is idempotent. Implementations throw {@link QueueUnavailableException} when the queue cannot answer.
 */
public interface QueueDirectory {

    /** PUT /internal/events/{e}. */
    void putEventState(EventId eventId, EventUpdateRequest state);

    /**
     * DELETE /internal/events/{e}: drops an archived or deleted event's keys; with {@code onlyIfEmpty}, only if nobody
     * has joined it ({@link QueueRejectedException} otherwise, nothing changed). Dropping an unknown event succeeds.
     */
    void dropEvent(EventId eventId, boolean onlyIfEmpty);

    /** POST /internal/events/{e}/draw: orders the pre-sale group; repeating it is a no-op. */
    DrawResult draw(EventId eventId, String seedHex);

    /** GET /internal/events/{e}/candidates?limit=N: the next WAITING entries in policy order, not removed. */
    List<Candidate> candidates(EventId eventId, int limit);

    /**
     * GET /internal/events/{e}/candidates?limit=N&amp;lane=L: the front of one declared lane
     * (docs/operating/lanes-and-access-codes.md); the general lane is {@link #candidates(String, int)}.
     */
    List<Candidate> candidates(EventId eventId, String lane, int limit);

    /**
     * POST /internal/events/{e}/lane: places the visitor's waiting entry in {@code lane}, keeping its order key;
     * idempotent. A visitor without a place is refused {@code not-in-queue}, a place not waiting
     * {@code state-conflict} (both as {@link dev.waitroom.coordinator.problems.CoordinatorException}).
     */
    LaneMoveResult moveToLane(EventId eventId, VisitorId visitor, String account, String lane);

    /** POST /internal/events/{e}/offers: WAITING -> OFFERED; an entry already OFFERED with that grant is unchanged. */
    List<OfferResult> offer(EventId eventId, List<Offer> offers);

    /** POST /internal/events/{e}/entries/{entryId}/transition; returns the entry's state afterwards. */
    String transition(EventId eventId, EntryId entryId, TransitionTarget to, GrantId grantId);

    /** GET /internal/events/{e}/counts. */
    QueueCounts counts(EventId eventId);

    /** A WAITING entry the coordinator may offer next (the contract's {@code Candidate}, its entry and visitor typed). */
    record Candidate(EntryId entryId, VisitorId visitor, long orderKey) {}

    /** One offer to tell the queue (the contract's {@code Offer}, its entry and grant typed). */
    record Offer(EntryId entryId, GrantId grantId, Instant expiresAt) {}
}
