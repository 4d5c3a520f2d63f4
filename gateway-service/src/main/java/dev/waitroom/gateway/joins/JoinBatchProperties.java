package dev.waitroom.gateway.joins;

import dev.waitroom.contract.queue.JoinBatch;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway batches joins ({@code waitroom.gateway.joins.batch.*}, docs/design/architecture.md#batched-joins): the
 * joins that arrive for an event while its batch is with the queue-service wait for it and go together in the next
 * one; a join that arrives when none is in flight goes at once, alone, so an idle gateway adds no latency.
 *
 * @param enabled batch joins; off, every join is forwarded on its own as before
 * @param maxSize joins in one batch at most (the queue-service takes at most {@value JoinBatch#MAX_JOINS}); a batch
 *     also closes before its body would pass {@value JoinBatch#MAX_BYTES} bytes
 * @param maxWait a batch waiting behind one in flight goes beside it after this long, or at once when it is full
 *     (while fewer than {@code maxInFlight} are in flight); until then the batch in flight answering sends it
 * @param maxInFlight batches of one event with the queue-service at once. At 1 every join is applied in the exact order
 *     it arrived here; above 1, joins of batches in flight together may interleave (each batch in its order), which only
 *     happens when the queue-service takes longer than {@code maxWait} to answer one
 * @param maxPending joins of one event waiting for a batch at most; past it a join is refused 503 upstream-unavailable,
 *     as when the queue-service cannot be reached (it is not answering batches fast enough)
 * @param timeout a batch the queue-service has not answered within this fails: each of its joins gets the answer a
 *     forwarded join that timed out gets (504 upstream-timeout); a join made anyway is found by the visitor's retry
 */
@Validated
@ConfigurationProperties("waitroom.gateway.joins.batch")
public record JoinBatchProperties(
        @DefaultValue("true") boolean enabled,

        @Min(1) @Max(JoinBatch.MAX_JOINS) @DefaultValue("256")
        int maxSize,

        @NotNull @DefaultValue("5ms") Duration maxWait,
        @Min(1) @DefaultValue("2") int maxInFlight,
        @Min(1) @DefaultValue("8192") int maxPending,
        @NotNull @DefaultValue("15s") Duration timeout) {}
