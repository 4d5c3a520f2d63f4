package dev.waitroom.queue.domain;

/** The entry a join converged on, and whether this join created it. */
public record JoinOutcome(EntryId entryId, boolean created) {
}
