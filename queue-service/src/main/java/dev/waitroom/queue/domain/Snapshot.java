package dev.waitroom.queue.domain;

import java.time.Instant;
import java.util.List;

/** What the gateway answers polls from (DESIGN §9). */
public record Snapshot(EventState event, List<WaitingBucket> waitingBuckets, Instant generatedAt) {
}
