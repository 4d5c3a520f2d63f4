package dev.waitroom.booking.holds;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The holds' part of {@code waitroom.booking.inventory} (the catalogue reads its listing size from the same prefix).
 *
 * @param holdTtl            how long a hold keeps its seats (independent of the shopping session's expiry)
 * @param maxSeatsPerHold    most seats one hold may take
 * @param sweepInterval      how often lapsed holds give their seats back (holds also lapse lazily on the next hold)
 *                           and sold-out events are looked for
 * @param maxSeatsPerSession most seats one shopping session may hold or have bought at once
 */
@ConfigurationProperties("waitroom.booking.inventory")
public record HoldsProperties(
        @DefaultValue("10m") Duration holdTtl,
        @DefaultValue("10") int maxSeatsPerHold,
        @DefaultValue("5s") Duration sweepInterval,
        @DefaultValue("10") int maxSeatsPerSession) {

    public HoldsProperties {
        if (holdTtl.toMillis() < 1000 || sweepInterval.toMillis() < 10) {
            throw new IllegalArgumentException("hold-ttl must be at least 1s and sweep-interval at least 10ms");
        }
        if (maxSeatsPerHold < 1 || maxSeatsPerHold > 100 || maxSeatsPerSession < 1) {
            throw new IllegalArgumentException("max-seats-per-hold must be 1..100 and max-seats-per-session positive");
        }
    }
}
