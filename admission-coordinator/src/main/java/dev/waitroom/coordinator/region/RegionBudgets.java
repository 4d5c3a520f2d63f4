package dev.waitroom.coordinator.region;

import dev.waitroom.contract.EventId;
import dev.waitroom.contract.Region;
import dev.waitroom.coordinator.SqlLiterals;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.lease.FencingGeneration;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The ledger of regional budgets (docs/operating/regions.md): slots each region's gate may hold as live grants, leased under the
 * region's fencing generation. Every change runs in a transaction that first locks the event row, as every allocation
 * does, and is one conditional statement that keeps the invariant: central live grants plus, per region, the greater
 * of its slots and its live grants never exceed the event's ceiling.
 */
@Repository
public class RegionBudgets {

    private static final String LIVE = SqlLiterals.list(GrantState.LIVE);

    /** Live grants of the region named by {@code b.region} (a correlated count, on the partial index by region). */
    private static final String LIVE_OF_B =
            "(select count(*) from grants g where g.event_id = b.event_id and g.region = b.region and g.state in (%s))"
                    .formatted(LIVE);

    private static final String ROWS = """
            select b.region, b.slots, %1$s as live, b.waiting, b.draining, b.generation, b.owner, b.expires_at,
                coalesce(l.expires_at > clock_timestamp(), false) as lease_live,
                coalesce(l.expires_at + make_interval(secs => :grace) <= clock_timestamp(), true) as frozen
            from region_budgets b
            left join leases l on l.event_id = b.event_id and l.region = b.region
            where b.event_id = :e order by b.region
            """.formatted(LIVE_OF_B);

    /**
     * Sets a region's budget, only while its gate holds the region's lease with this generation, never below its live
     * grants, and, when it grows, only if the ledger invariant holds after it.
     */
    private static final String RENEW = """
            insert into region_budgets (event_id, region, slots, generation, owner, expires_at, waiting)
            select :e, :r, :slots, :gen, :owner, l.expires_at, :waiting
            from leases l
            where l.event_id = :e and l.region = :r and l.owner = :owner and l.generation = :gen
              and l.expires_at > clock_timestamp()
              and :slots >= (select count(*) from grants g where g.event_id = :e and g.region = :r and g.state in (%1$s))
              and (:slots <= coalesce((select b.slots from region_budgets b where b.event_id = :e and b.region = :r), 0)
                   or :slots
                      + (select count(*) from grants g where g.event_id = :e and g.region = '' and g.state in (%1$s))
                      + (select coalesce(sum(greatest(b.slots, %2$s)), 0) from region_budgets b
                         where b.event_id = :e and b.region <> :r)
                      <= (select e.max_active_sessions from events e where e.event_id = :e))
            on conflict (event_id, region) do update set
                slots = excluded.slots, generation = excluded.generation, owner = excluded.owner,
                expires_at = excluded.expires_at, waiting = excluded.waiting, updated_at = now()
            where region_budgets.generation <= excluded.generation
            returning slots
            """.formatted(LIVE, LIVE_OF_B);

    /**
     * Reconciles frozen budgets: a region whose lease expired more than the grace ago keeps only its live grants
     * (shrinking never breaks the invariant). A gate that comes back takes a new generation and leases anew.
     */
    private static final String SHRINK_FROZEN = """
            update region_budgets b set slots = %1$s, updated_at = now()
            where b.event_id = :e and b.region <> :me and b.slots > %1$s
              and not exists (select 1 from leases l where l.event_id = b.event_id and l.region = b.region
                              and l.expires_at + make_interval(secs => :grace) > clock_timestamp())
            returning b.region
            """.formatted(LIVE_OF_B);

    private final JdbcClient jdbc;

    private final TransactionTemplate transactions;

    public RegionBudgets(JdbcClient jdbc, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.transactions = transactions;
    }

    /** A region's row of the ledger, with its live grants and its lease's state, for the rule and the ops view. */
    public record Budget(
            Region region,
            int slots,
            long live,
            long waiting,
            boolean draining,
            long generation,
            String owner,
            Instant expiresAt,
            boolean leaseLive,
            boolean frozen) {

        BudgetRule.Row row() {
            return new BudgetRule.Row(
                    this.region.name(), this.slots, this.live, this.waiting, this.frozen, this.draining);
        }
    }

    /** The whole ledger of one event. */
    public record Ledger(int ceiling, long centralLive, List<Budget> budgets) {

        public Optional<Budget> of(Region region) {
            return this.budgets.stream().filter(b -> b.region().equals(region)).findFirst();
        }

        /** What the ledger holds of the ceiling: central live grants plus each region's slots or live grants. */
        public long held() {
            return this.centralLive
                    + this.budgets.stream()
                            .mapToLong(b -> Math.max(b.slots(), b.live()))
                            .sum();
        }
    }

    /** The outcome of a renewal: the budget now held (empty when fenced off: the lease is not this gate's). */
    public record Renewal(int slots, long live, double share) {}

    /**
     * Renews {@code region}'s budget by the rule, reporting {@code waiting}: empty when this gate no longer holds the
     * region's lease with {@code generation}.
     */
    public Optional<Renewal> renew(
            Region region, EventId eventId, String owner, FencingGeneration generation, long waiting, Duration grace) {
        if (!region.regional()) {
            throw new IllegalArgumentException("the central gate holds no budget");
        }
        return this.transactions.execute(status -> {
            Grants.lockEvent(this.jdbc, eventId);
            Ledger ledger = read(eventId, grace);
            boolean draining = ledger.of(region).map(Budget::draining).orElse(false);
            BudgetRule.Decision decision = BudgetRule.decide(
                    ledger.ceiling(),
                    ledger.centralLive(),
                    ledger.budgets().stream().map(Budget::row).toList(),
                    region.name(),
                    waiting,
                    draining);
            Optional<Integer> slots = this.jdbc
                    .sql(RENEW)
                    .param("e", eventId.value())
                    .param("r", region.name())
                    .param("slots", decision.slots())
                    .param("gen", generation.value())
                    .param("owner", owner)
                    .param("waiting", Math.max(0, waiting))
                    .query(Integer.class)
                    .optional();
            long live = ledger.of(region).map(Budget::live).orElse(0L);
            return slots.map(s -> new Renewal(s, live, decision.share()));
        });
    }

    /** Shrinks every frozen budget of the event (other than {@code me}'s) to its live grants; returns the regions. */
    public List<Region> reconcileFrozen(Region me, EventId eventId, Duration grace) {
        return this.transactions.execute(status -> {
            Grants.lockEvent(this.jdbc, eventId);
            return this.jdbc
                    .sql(SHRINK_FROZEN)
                    .param("e", eventId.value())
                    .param("me", me.name())
                    .param("grace", grace.toNanos() / 1e9)
                    .query((rs, n) -> new Region(rs.getString(1)))
                    .list();
        });
    }

    /**
     * Marks a region draining (no new budget: it shrinks to its live grants at its next renewal) or not. A region with
     * no row yet gets an empty one. Returns the previous state.
     */
    public boolean setDraining(EventId eventId, Region region, boolean draining) {
        return this.transactions.execute(status -> {
            Grants.lockEvent(this.jdbc, eventId);
            Boolean before = this.jdbc
                    .sql("select draining from region_budgets where event_id = :e and region = :r")
                    .param("e", eventId.value())
                    .param("r", region.name())
                    .query(Boolean.class)
                    .optional()
                    .orElse(false);
            this.jdbc
                    .sql("""
                    insert into region_budgets (event_id, region, slots, generation, owner, expires_at, draining)
                    values (:e, :r, 0, 0, '', clock_timestamp(), :d)
                    on conflict (event_id, region) do update set draining = excluded.draining, updated_at = now()
                    """)
                    .param("e", eventId.value())
                    .param("r", region.name())
                    .param("d", draining)
                    .update();
            return before;
        });
    }

    /** The event's ledger: ceiling, central live grants and every region's row. */
    public Ledger read(EventId eventId, Duration grace) {
        List<Budget> budgets = this.jdbc
                .sql(ROWS)
                .param("e", eventId.value())
                .param("grace", grace.toNanos() / 1e9)
                .query((rs, n) -> new Budget(
                        new Region(rs.getString("region")),
                        rs.getInt("slots"),
                        rs.getLong("live"),
                        rs.getLong("waiting"),
                        rs.getBoolean("draining"),
                        rs.getLong("generation"),
                        rs.getString("owner"),
                        rs.getObject("expires_at", OffsetDateTime.class).toInstant(),
                        rs.getBoolean("lease_live"),
                        rs.getBoolean("frozen")))
                .list();
        record Head(int ceiling, long centralLive) {}
        Head head = this.jdbc
                .sql("""
                select e.max_active_sessions as ceiling,
                    (select count(*) from grants g where g.event_id = e.event_id and g.region = '' and g.state in (%s))
                        as central
                from events e where e.event_id = :e
                """.formatted(LIVE))
                .param("e", eventId.value())
                .query((rs, n) -> new Head(rs.getInt("ceiling"), rs.getLong("central")))
                .single();
        return new Ledger(head.ceiling(), head.centralLive(), budgets);
    }
}
