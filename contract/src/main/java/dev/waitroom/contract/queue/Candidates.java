package dev.waitroom.contract.queue;

import java.util.List;

/**
 * The answer to {@code GET /internal/events/{eventId}/candidates?limit=N} ({@link QueuePaths#CANDIDATES}): the next N
 * WAITING entries in policy order, not removed; empty before the draw completes. A missing list reads as empty.
 */
public record Candidates(List<Candidate> entries) {

    public Candidates {
        entries = entries == null ? List.of() : entries;
    }
}
