package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;
import java.util.List;

/**
 * Body of {@code POST /internal/events/{eventId}/liveness} ({@link QueuePaths#LIVENESS}): the entries whose polls the
 * gateway answered at the edge, as pairs {@code [entryId, visitorId]}, at most {@link #MAX_ENTRIES} per batch.
 */
public record LivenessBatch(List<List<String>> seen) {

    /**
     * Entries per batch at most; the gateway splits larger ones. At most 40 bytes each on the wire, so a full batch
     * stays inside the queue-service's 16 KiB body limit.
     */
    public static final int MAX_ENTRIES = 150;

    /** One entry the edge answered for, and the visitor it answered. */
    public record Seen(String entryId, String visitorId) {

        /**
         * The entry of one wire pair; a {@link MalformedValueException} unless it is two values with an entry id. The
         * visitor id's format is the receiver's to check.
         */
        public static Seen fromPair(List<String> pair) {
            if (pair == null || pair.size() != 2 || pair.get(0) == null || pair.get(1) == null) {
                throw new MalformedValueException("each seen item is [entryId, visitorId]");
            }
            return new Seen(pair.get(0), pair.get(1));
        }

        /** The wire form, {@code [entryId, visitorId]}. */
        public List<String> pair() {
            return List.of(entryId, visitorId);
        }
    }

    public static LivenessBatch of(List<Seen> entries) {
        return new LivenessBatch(entries.stream().map(Seen::pair).toList());
    }

    /** This batch when it has a list of at most {@link #MAX_ENTRIES}, else a {@link MalformedValueException}. */
    public LivenessBatch validated() {
        if (seen == null) {
            throw new MalformedValueException("a body {\"seen\":[[entryId, visitorId], ...]} is required");
        }
        if (seen.size() > MAX_ENTRIES) {
            throw new MalformedValueException("at most " + MAX_ENTRIES + " entries per batch");
        }
        return this;
    }
}
