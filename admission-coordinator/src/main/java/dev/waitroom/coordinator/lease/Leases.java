package dev.waitroom.coordinator.lease;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import java.time.Duration;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

/**
 * Per-event leadership leases on database time (ShedLock style, one statement each), one per event and region (the
 * central gate's region is the empty name, docs/operating/regions.md). Acquiring a lease that is expired or new increments the
 * fencing generation; the holder renewing a live lease keeps it. Without a region argument a method is about this
 * coordinator's own region.
 */
@Repository
public class Leases {

    /** Upper bound from the spec: a lease is never longer than this. */
    public static final Duration MAX_LEASE = Duration.ofSeconds(5);

    private final JdbcClient jdbc;

    private final Region region;

    public Leases(JdbcClient jdbc, Region region) {
        this.jdbc = jdbc;
        this.region = region;
    }

    /**
     * Takes or renews the lease of {@code eventId} for {@code owner}. Empty when another owner holds a live lease.
     */
    public Optional<FencingGeneration> acquireOrRenew(EventId eventId, String owner, Duration duration) {
        return acquireOrRenew(this.region, eventId, owner, duration);
    }

    /** Takes or renews the lease of {@code eventId} in {@code region} for {@code owner}. */
    public Optional<FencingGeneration> acquireOrRenew(Region region, EventId eventId, String owner, Duration duration) {
        if (duration.compareTo(MAX_LEASE) > 0 || duration.isNegative() || duration.isZero()) {
            throw new IllegalArgumentException("lease duration must be within (0, 5 s]");
        }
        return this.jdbc
                .sql("""
                insert into leases (event_id, region, owner, generation, expires_at)
                values (:event, :region, :owner, 1, clock_timestamp() + make_interval(secs => :seconds))
                on conflict (event_id, region) do update set
                    owner = excluded.owner,
                    generation = case when leases.owner = excluded.owner and leases.expires_at > clock_timestamp()
                                      then leases.generation else leases.generation + 1 end,
                    expires_at = excluded.expires_at
                where leases.owner = excluded.owner or leases.expires_at <= clock_timestamp()
                returning generation
                """)
                .param("event", eventId.value())
                .param("region", region.name())
                .param("owner", owner)
                .param("seconds", duration.toNanos() / 1e9)
                .query((rs, n) -> new FencingGeneration(rs.getLong(1)))
                .optional();
    }

    /** Gives the lease up (shutdown): the next leader need not wait for it to expire. */
    public void release(EventId eventId, String owner) {
        this.jdbc
                .sql("""
                update leases set expires_at = clock_timestamp()
                where event_id = :event and region = :region and owner = :owner
                """)
                .param("event", eventId.value())
                .param("region", this.region.name())
                .param("owner", owner)
                .update();
    }

    /** The lease of {@code eventId} in this coordinator's region. */
    public Optional<LeaseView> current(EventId eventId) {
        return this.jdbc
                .sql("""
                select owner, generation, expires_at > clock_timestamp() as live from leases
                where event_id = :event and region = :region
                """)
                .param("event", eventId.value())
                .param("region", this.region.name())
                .query((rs, n) -> new LeaseView(
                        rs.getString("owner"), new FencingGeneration(rs.getLong("generation")), rs.getBoolean("live")))
                .optional();
    }

    public record LeaseView(String owner, FencingGeneration generation, boolean live) {}
}
