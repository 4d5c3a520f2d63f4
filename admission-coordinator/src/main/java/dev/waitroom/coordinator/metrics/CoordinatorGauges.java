package dev.waitroom.coordinator.metrics;

import dev.waitroom.coordinator.keys.KeysProperties;
import dev.waitroom.coordinator.keys.SigningKeys;
import dev.waitroom.coordinator.rate.EventRates;
import dev.waitroom.coordinator.rate.HealthStatus;
import dev.waitroom.tokens.KeyRing;
import dev.waitroom.tokens.KeyState;
import dev.waitroom.tokens.SigningKeyInfo;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Gauges the alert rules need and nothing else published: booking health as the rate controller judges it, each
 * event's lease generation, and how long the signing key has before it must be rotated out. All three are read by
 * {@link #refresh()} on a schedule ({@link CoordinatorGaugesSchedule}, every {@code waitroom.coordinator.gauges.refresh},
 * 5 s); a scrape only reads the last figures. A part that cannot be read (PostgreSQL down) keeps its last figures and
 * is logged at debug: the other alerts (stale health, paused admission) say the store is gone.
 *
 * <ul>
 *   <li>{@code waitroom_coordinator_booking_health{status}}: 1 for this instance's current judgement of booking's own
 *       health reports (HEALTHY, STRAINED, DEGRADED, CRITICAL, STALE: none fresh), 0 for the others. Booking's reports
 *       name no event, so every event reads the same; each event's status also counts the edge's measurements of its
 *       origin (live view). Every instance with the ticker reads the same shared reports, so rules take {@code max}.
 *   <li>{@code waitroom_coordinator_lease_generation{event,region}}: the fencing generation of the event's lease in
 *       that region ({@code leases}; the central gate's region is empty, as in a single-region deployment); each
 *       acquisition by a new owner (or after the lease lapsed) adds one, so {@code changes()} over a window counts
 *       leadership moves. The same on every instance. A lease that expired more than {@code lease-quiet-for} (1 h)
 *       ago loses its series.
 *   <li>{@code waitroom_coordinator_signing_key_retires_in_seconds}: seconds until the signing key stops signing:
 *       while a rotation is under way (a NEXT key is published), until NEXT activates ({@code publish-lead} after it
 *       was published); otherwise until the active key reaches {@code signing-key-max-age} since it was activated.
 *       Negative once overdue.
 * </ul>
 */
@Component
public class CoordinatorGauges {

    private static final Logger log = LoggerFactory.getLogger(CoordinatorGauges.class);

    /** What booking's reports can be judged: UNMEASURED is an event's status, never a shop report's. */
    private static final java.util.Set<HealthStatus> SHOP_STATUSES =
            java.util.EnumSet.complementOf(java.util.EnumSet.of(HealthStatus.UNMEASURED));

    private final EventRates rates;

    private final SigningKeys keys;

    private final KeysProperties keyTiming;

    private final JdbcClient jdbc;

    private final Clock clock;

    private final CoordinatorGaugesProperties properties;

    private final MultiGauge leaseGenerations;

    private final Map<HealthStatus, Double> health = new ConcurrentHashMap<>();

    private volatile double keyRetiresIn = Double.NaN;

    CoordinatorGauges(
            EventRates rates,
            SigningKeys keys,
            KeysProperties keyTiming,
            JdbcClient jdbc,
            Clock clock,
            CoordinatorGaugesProperties properties,
            MeterRegistry meters) {
        this.rates = rates;
        this.keys = keys;
        this.keyTiming = keyTiming;
        this.jdbc = jdbc;
        this.clock = clock;
        this.properties = properties;
        for (HealthStatus status : SHOP_STATUSES) {
            // before the first refresh health is unknown: STALE, as the controller starts
            this.health.put(status, status == HealthStatus.STALE ? 1.0 : 0.0);
            Gauge.builder("waitroom.coordinator.booking.health", this.health, h -> h.getOrDefault(status, 0.0))
                    .description("1 for booking's health status as this instance's rate controller judges it")
                    .tag("status", status.name())
                    .register(meters);
        }
        this.leaseGenerations = MultiGauge.builder("waitroom.coordinator.lease.generation")
                .description(
                        "The fencing generation of an event's lease in a region: it rises each time leadership moves")
                .register(meters);
        Gauge.builder("waitroom.coordinator.signing.key.retires.in", this, g -> g.keyRetiresIn)
                .description("Seconds until the signing key stops signing (rotation under way) or must be rotated")
                .baseUnit("seconds")
                .register(meters);
    }

    /** Reads every figure once; the schedule calls it, tests call it by hand. */
    public synchronized void refresh() {
        refreshHealth();
        refreshLeases();
        refreshSigningKey();
    }

    private void refreshHealth() {
        HealthStatus now = this.rates.shopStatus();
        for (HealthStatus status : SHOP_STATUSES) {
            this.health.put(status, status == now ? 1.0 : 0.0);
        }
    }

    private void refreshLeases() {
        try {
            // one lease per event and region (the central gate's region is empty; a single-region deployment has only
            // that one), each with its own generation
            List<MultiGauge.Row<?>> rows = new ArrayList<>();
            this.jdbc
                    .sql("""
                            select event_id, region, generation from leases
                            where expires_at > clock_timestamp() - make_interval(secs => :quiet)
                            """)
                    .param("quiet", this.properties.leaseQuietFor().toSeconds())
                    .query((rs, n) -> rows.add(MultiGauge.Row.of(
                            Tags.of("event", rs.getString("event_id"), "region", rs.getString("region")),
                            rs.getLong("generation"))))
                    .list();
            this.leaseGenerations.register(rows, true);
        } catch (RuntimeException ex) {
            log.debug("Lease generations not read: {}", ex.getMessage());
        }
    }

    private void refreshSigningKey() {
        try {
            this.keyRetiresIn = retiresAt(this.keys.ring())
                    .map(at -> Duration.between(this.clock.instant(), at).toMillis() / 1000.0)
                    .orElse(Double.NaN);
        } catch (RuntimeException ex) {
            log.debug("Signing key ring not read: {}", ex.getMessage());
        }
    }

    /** When the signing key stops signing: when NEXT activates, or the active key's activation plus the max age. */
    private Optional<Instant> retiresAt(KeyRing ring) {
        Optional<SigningKeyInfo> next =
                ring.keys().stream().filter(k -> k.state() == KeyState.NEXT).findFirst();
        if (next.isPresent()) {
            return Optional.of(next.get().created().plus(this.keyTiming.publishLead()));
        }
        return ring.keys().stream()
                .filter(k -> k.state() == KeyState.ACTIVE)
                .findFirst()
                .map(k ->
                        (k.activated() != null ? k.activated() : k.created()).plus(this.properties.signingKeyMaxAge()));
    }
}
