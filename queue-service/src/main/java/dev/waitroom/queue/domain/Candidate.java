package dev.waitroom.queue.domain;

/** A WAITING entry the coordinator may offer next. */
public record Candidate(EntryId entryId, String visitor, long orderKey) {
}
