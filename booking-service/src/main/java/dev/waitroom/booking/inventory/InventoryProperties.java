package dev.waitroom.booking.inventory;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * @param holdTtl         how long a hold keeps its seats (independent of the shopping session's expiry)
 * @param maxSeatsPerHold most seats one hold may take
 * @param sweepInterval   how often lapsed holds give their seats back (holds also lapse lazily on the next hold)
 * @param maxListedSeats  most seats one availability listing returns
 * @param maxSeatsPerSession most seats one shopping session may hold or have bought at once
 */
@ConfigurationProperties("waitroom.booking.inventory")
record InventoryProperties(@DefaultValue("10m") Duration holdTtl, @DefaultValue("10") int maxSeatsPerHold,
        @DefaultValue("5s") Duration sweepInterval, @DefaultValue("500") int maxListedSeats,
        @DefaultValue("10") int maxSeatsPerSession) {

    InventoryProperties {
        if (holdTtl.toMillis() < 1000 || sweepInterval.toMillis() < 10) {
            throw new IllegalArgumentException("hold-ttl must be at least 1s and sweep-interval at least 10ms");
        }
        if (maxSeatsPerHold < 1 || maxSeatsPerHold > 100 || maxListedSeats < 1 || maxSeatsPerSession < 1) {
            throw new IllegalArgumentException(
                    "max-seats-per-hold must be 1..100; max-listed-seats and max-seats-per-session positive");
        }
    }
}
