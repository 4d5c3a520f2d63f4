package dev.waitroom.coordinator.region;

import dev.waitroom.contract.Region;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * This coordinator's region (docs/operating/regions.md).
 *
 * @param name  the region this coordinator is the gate of (lowercase letters, digits, dashes; at most 32); empty (the
 *     default) for the central gate of a single-region deployment, which needs no budget
 * @param grace how long after a region's lease expired its budget stays frozen before another gate reconciles it:
 *     covers a gate that is slow, not dead, and the clock skew between gates and the database
 */
@ConfigurationProperties("waitroom.region")
public record RegionProperties(
        @DefaultValue("") String name, @DefaultValue("10s") Duration grace) {

    public RegionProperties {
        if (grace.isNegative()) {
            throw new IllegalArgumentException("waitroom.region.grace must not be negative");
        }
    }

    public Region region() {
        return new Region(this.name);
    }
}
