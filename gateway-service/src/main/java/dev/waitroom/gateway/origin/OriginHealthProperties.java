package dev.waitroom.gateway.origin;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * How the gateway measures the shop origins it forwards to and reports it to the coordinator
 * (docs/design/architecture.md, rate controller).
 *
 * @param reportInterval how often each instance sends its windows ({@code POST /internal/edge-health}); a report goes
 *     out every interval even with no window, so the coordinator can tell an idle event from a gateway gone
 * @param forgetAfter an (event, origin) with no request for this long is dropped from memory
 * @param maxWindows (event, origin) pairs measured at most; requests beyond are counted as unmeasured
 */
@Validated
@ConfigurationProperties("waitroom.gateway.origin-health")
public record OriginHealthProperties(
        @NotNull @DefaultValue("1s") Duration reportInterval,
        @NotNull @DefaultValue("10m") Duration forgetAfter,
        @Min(1) @Max(500) @DefaultValue("500") int maxWindows) {}
