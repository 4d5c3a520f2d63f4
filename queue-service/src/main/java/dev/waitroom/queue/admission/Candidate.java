package dev.waitroom.queue.admission;

import dev.waitroom.queue.join.EntryId;

/** A WAITING entry the coordinator may offer next. */
public record Candidate(EntryId entryId, String visitor, long orderKey) {
}
