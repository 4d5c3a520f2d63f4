package dev.waitroom.queue.admission;

/** Counters of one event. Abandoned = entries that left plus offers that expired unclaimed. */
public record Counts(long waiting, long offered, long active, long completed, long left, long expired, long joins,
        long oldestWaitSeconds, long abandoned, long offersExpired, long requeued) {
}
