package dev.waitroom.queue.metrics;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the queue gauges are read from Redis (docs/reference/metrics.md).
 *
 * @param refresh how often the counters and the front of the queue of each event are read (waiting, oldest wait,
 *     entries by state)
 * @param unseenAfter a WAITING visitor not seen (no poll at the service or the edge, no join) for this long counts as
 *     unseen; longer than {@code waitroom.queue.liveness-interval}, which is how rarely a poll writes last-seen
 * @param unseenRefresh how often the waiting entries are scanned for the unseen count (a scan reads every entry
 *     record of the event, a run of buckets per call)
 * @param scanBuckets entry buckets (128 entries each) read per Lua call of that scan
 */
@Validated
@ConfigurationProperties("waitroom.queue.gauges")
public record QueueGaugeProperties(
        @NotNull @DefaultValue("5s") Duration refresh,
        @NotNull @DefaultValue("2m") Duration unseenAfter,
        @NotNull @DefaultValue("30s") Duration unseenRefresh,
        @Min(1) @Max(1024) @DefaultValue("8") int scanBuckets) {

    /** The unseen gauge's {@code minutes} tag. */
    String unseenMinutes() {
        long seconds = unseenAfter.toSeconds();
        return seconds % 60 == 0 ? Long.toString(seconds / 60) : Double.toString(seconds / 60.0);
    }
}
