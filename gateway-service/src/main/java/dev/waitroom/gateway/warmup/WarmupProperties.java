package dev.waitroom.gateway.warmup;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The warm-up a service runs before it reports ready (docs/operating/running.md, "Warm-up before ready").
 *
 * @param enabled off in tests, which start many contexts; on wherever a service takes traffic
 * @param duration the most the whole warm-up may take; each step gets an equal share, and readiness comes when it ends
 *     whatever the steps reached
 * @param iterations calls of each step's hot path: enough for C2 to compile it (a method is compiled by C2 after about
 *     10,000 invocations or loop iterations; a call runs the hot methods several times)
 */
@Validated
@ConfigurationProperties("waitroom.warmup")
public record WarmupProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("8s") Duration duration,
        @DefaultValue("5000") @Min(1) @Max(1_000_000) int iterations) {

    public WarmupProperties {
        if (duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("waitroom.warmup.duration must be positive");
        }
    }
}
