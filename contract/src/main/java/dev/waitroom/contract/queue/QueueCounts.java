package dev.waitroom.contract.queue;

/**
 * The answer to {@code GET /internal/events/{eventId}/counts} ({@link QueuePaths#COUNTS}): the counters of one event.
 * Abandoned = entries that left plus offers that expired unclaimed. {@code oldestWaitSeconds}, {@code offersExpired}
 * and {@code requeued} are boxed because the coordinator read the first as optional and not the others before this
 * record, so a reply without them stays readable; the queue-service always sends them.
 */
public record QueueCounts(
        long waiting,
        long offered,
        long active,
        long completed,
        long left,
        long expired,
        long joins,
        Long oldestWaitSeconds,
        long abandoned,
        Long offersExpired,
        Long requeued) {}
