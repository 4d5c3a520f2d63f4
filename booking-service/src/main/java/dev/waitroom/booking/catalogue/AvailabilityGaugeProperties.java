package dev.waitroom.booking.catalogue;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How often the seats that can be taken are counted per category for {@code waitroom.booking.seats.available}
 * (docs/reference/metrics.md).
 *
 * @param refresh the interval between two counts (one query over every category, on the seats' event/state index)
 */
@Validated
@ConfigurationProperties("waitroom.booking.availability-gauge")
public record AvailabilityGaugeProperties(
        @NotNull @DefaultValue("10s") Duration refresh) {}
