package dev.waitroom.contract.queue;

/**
 * The answer to {@code POST /internal/events/{eventId}/entries/{entryId}/transition}: the entry and its state
 * afterwards (an entry state name, WAITING after a requeue).
 */
public record EntryTransitionResult(String entryId, String state) {}
