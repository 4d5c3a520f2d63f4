package dev.waitroom.queue.config;

import dev.waitroom.contract.queue.OfferBatch;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Tuning of the queue service.
 *
 * @param livenessInterval a visitor's last-seen is written at most once per this interval
 * @param drawChunkSize pre-sale entries ordered per Lua call of the draw (keeps each call short)
 * @param snapshotBuckets buckets of the waiting order in the edge snapshot
 * @param maxBatch most candidates or offers per internal call
 * @param busyStatusPerSecond status requests per second above which visitors are asked to poll less often
 * @param redisTimeout how long one Redis call may take before the request fails with 503
 * @param redisRetryAttempts Redisson retries of one call while Redis is unreachable
 * @param redisReplicaAcks replicas that must have a change (Redis {@code WAIT}) before it is acknowledged; 0 answers
 *     as soon as the primary has it. With Sentinel, 1 keeps every acknowledged change through a failover to a
 *     replica that had it (docs/reference/contracts.md, "Redis keys and topologies")
 * @param redisReplicaAckTimeout how long a change waits for those replicas before the call fails with 503
 * @param entryHints visitors whose entry sequence is remembered, so that a status call declares its keys at once
 * @param redisMemoryRefresh how often the Redis memory gauges are read (INFO memory), off the scrape path
 * @param gateSilence how long an open, queueing event may go without a state push from its coordinator before
 *     visitors are shown it as paused (its gate has stopped: nobody is admitted from this queue); 0 never
 */
@Validated
@ConfigurationProperties("waitroom.queue")
public record QueueProperties(
        @NotNull @DefaultValue("30s") Duration livenessInterval,
        @Min(1) @Max(20000) @DefaultValue("2000") int drawChunkSize,
        @Min(1) @Max(1024) @DefaultValue("64") int snapshotBuckets,

        @Min(1) @Max(10000) @DefaultValue("" + OfferBatch.MAX_OFFERS)
        int maxBatch,

        @Min(1) @DefaultValue("2000") int busyStatusPerSecond,
        @NotNull @DefaultValue("2s") Duration redisTimeout,
        @Min(0) @DefaultValue("1") int redisRetryAttempts,
        @Min(0) @Max(5) @DefaultValue("0") int redisReplicaAcks,
        @NotNull @DefaultValue("500ms") Duration redisReplicaAckTimeout,
        @Min(0) @DefaultValue("100000") int entryHints,
        @NotNull @DefaultValue("5s") Duration redisMemoryRefresh,
        @NotNull @DefaultValue("15s") Duration gateSilence) {}
