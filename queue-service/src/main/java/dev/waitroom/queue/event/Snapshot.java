package dev.waitroom.queue.event;

import dev.waitroom.contract.queue.WaitingBucket;
import java.time.Instant;
import java.util.List;

/** What the gateway answers polls from (docs/design/architecture.md#the-edge-snapshot). */
public record Snapshot(EventState event, List<WaitingBucket> waitingBuckets, Instant generatedAt) {}
