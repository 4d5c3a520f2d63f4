package dev.waitroom.coordinator.metrics;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The coordinator's scheduled gauges ({@link CoordinatorGauges}, docs/reference/metrics.md). {@code refresh}: how
 * often they are read (never on a scrape). {@code signingKeyMaxAge}: the operators' rotation policy, how long a signing
 * key may sign before it must be rotated out ({@code POST /admin/keys/rotate}); the coordinator rotates nothing by
 * itself, so this only sets when {@code waitroom_coordinator_signing_key_retires_in_seconds} reaches 0.
 * {@code leaseQuietFor}: a lease (an event in a region) that expired longer ago than this loses its lease-generation
 * series.
 *
 * @param refresh how often the coordinator's gauges are read from the database (never on a scrape)
 * @param signingKeyMaxAge how long a signing key may sign before the operators' policy wants it rotated out; sets when
 *     the signing-key retirement gauge reaches 0
 * @param leaseQuietFor a lease (an event in a region) that expired longer ago than this loses its lease-generation
 *     series
 */
@ConfigurationProperties("waitroom.coordinator.gauges")
public record CoordinatorGaugesProperties(
        @DefaultValue("5s") Duration refresh,
        @DefaultValue("90d") Duration signingKeyMaxAge,
        @DefaultValue("1h") Duration leaseQuietFor) {

    public CoordinatorGaugesProperties {
        if (refresh.isNegative() || refresh.isZero()) {
            throw new IllegalArgumentException("waitroom.coordinator.gauges.refresh must be positive");
        }
        if (signingKeyMaxAge.isNegative() || signingKeyMaxAge.isZero()) {
            throw new IllegalArgumentException("waitroom.coordinator.gauges.signing-key-max-age must be positive");
        }
        if (leaseQuietFor.isNegative()) {
            throw new IllegalArgumentException("waitroom.coordinator.gauges.lease-quiet-for must not be negative");
        }
    }
}
