package dev.waitroom.queue.offers;

import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.queue.join.EntryState;

/**
 * What an offer did to one entry.
 *
 * @param state the entry's state now, or null when there is no such entry
 * @param holdsGrant true when the entry is held by the offered grant (just offered, or already before)
 */
public record OfferOutcome(EntryId entryId, EntryState state, boolean holdsGrant) {}
