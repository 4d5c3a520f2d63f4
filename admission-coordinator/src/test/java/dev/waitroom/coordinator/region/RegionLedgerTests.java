package dev.waitroom.coordinator.region;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.Grant;
import dev.waitroom.coordinator.grants.Grants;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * The ledger of regional budgets under a randomized, concurrent workload against real PostgreSQL (docs/operating/regions.md):
 * three regions' gates and the central gate, each on its own thread and with two lease owners per region (a gate and
 * its replacement), lease, renew, use, return, drain, stall, and reconcile one another's frozen budgets. After every
 * step the ledger is read in one statement and must hold: central live grants plus, per region, the greater of its slots
 * and its live grants is at most the ceiling; each region's live grants are at most its slots; hence the event's live
 * grants never exceed the ceiling. A write under a generation that has been taken over changes nothing.
 */
@CoordinatorTest
class RegionLedgerTests {

    /** Entry ids of the candidates made by hand, unique in the JVM as the queue's are in an event. */
    private static final AtomicLong ENTRIES = new AtomicLong();

    private static final Duration GRACE = Duration.ofMillis(150);

    @Autowired
    Scenario scenario;

    @Autowired
    Leases leases;

    @Autowired
    Grants grants;

    @Autowired
    RegionBudgets budgets;

    @Autowired
    Admissions admissions;

    @Autowired
    JdbcClient jdbc;

    final Map<String, AtomicLong> counts = new ConcurrentHashMap<>();

    @Test
    void randomizedLeasingUseReturnAndExpiryNeverPassTheCeiling() throws Exception {
        long seed = Long.getLong("regions.seed", System.nanoTime());
        int ceiling = 20 + new Random(seed).nextInt(30);
        String eventId = this.scenario.openNewEvent(
                "ledger",
                Scenario.config(ceiling, 1000, 50, 1, 1, 2, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
        List<String> gates = List.of("", "r1", "r2", "r3");
        ExecutorService pool = Executors.newFixedThreadPool(gates.size());
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < gates.size(); i++) {
                Region region = new Region(gates.get(i));
                Random random = new Random(seed + i);
                runs.add(pool.submit(() -> {
                    play(eventId, region, random, 250);
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(120, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf(
                "regions ledger (seed %d, ceiling %d): %s%n", seed, ceiling, new java.util.TreeMap<>(this.counts));
        assertThat(count("offered")).as("offers were made").isPositive();
        assertThat(count("renewed")).as("budgets were renewed").isPositive();
        assertThat(count("reconciled") + count("frozen-expired"))
                .as("stopped regions' budgets were reconciled")
                .isPositive();
        assertThat(count("fenced-write-refused")).as("takeovers happened").isPositive();
        assertThat(count("offer-refused"))
                .as("budgets and the ceiling refused offers")
                .isPositive();
    }

    /** One gate's life: {@code steps} random actions, the ledger checked after each. */
    private void play(String eventId, Region region, Random random, int steps) {
        String[] owners = {region + "-a", region + "-b"};
        int current = 0;
        FencingGeneration generation = null;
        FencingGeneration stale = null;
        int stalledFor = 0;
        int serial = 0;
        for (int step = 0; step < steps; step++) {
            int action = random.nextInt(100);
            if (stalledFor > 0) {
                // a gate that stopped renewing (a GC pause, a partition) and wakes up still tries to offer with the
                // generation it had: once its lease lapsed, that changes nothing
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(stalledFor));
                stalledFor = 0;
                if (generation != null) {
                    List<Grant> made =
                            offer(eventId, region, owners[current], generation, 1 + random.nextInt(3), serial++, false);
                    bump(made.isEmpty() ? "woke-fenced" : "woke-still-leading");
                }
            } else if (action < 30) {
                Duration lease = Duration.ofMillis(150 + random.nextInt(250));
                Optional<FencingGeneration> got =
                        this.leases.acquireOrRenew(region, EventId.of(eventId), owners[current], lease);
                if (got.isEmpty()) {
                    // the other owner holds it: the replacement waits for its expiry, as a new gate does
                    current = 1 - current;
                    generation = null;
                } else {
                    if (generation != null && !generation.equals(got.get())) {
                        stale = generation;
                    }
                    generation = got.get();
                    if (region.regional()) {
                        Optional<RegionBudgets.Renewal> renewed = this.budgets.renew(
                                region, EventId.of(eventId), owners[current], generation, random.nextInt(500), GRACE);
                        bump(renewed.isPresent() ? "renewed" : "renew-fenced");
                    }
                }
            } else if (action < 65) {
                if (generation != null) {
                    offer(eventId, region, owners[current], generation, 1 + random.nextInt(6), serial++, true);
                }
                if (stale != null) {
                    // the generation before a takeover is fenced off for good
                    List<Grant> refused =
                            offer(eventId, region, owners[current], stale, 1 + random.nextInt(3), serial++, false);
                    assertThat(refused)
                            .as("a write under a taken-over generation")
                            .isEmpty();
                    bump("fenced-write-refused");
                }
            } else if (action < 85) {
                // sessions end: the region's grants return capacity
                int returned = this.jdbc
                        .sql("""
                        update grants set state = 'RELEASED', release_reason = 'LEFT', released_at = now()
                        where id in (select id from grants where event_id = :e and region = :r
                                     and state in ('OFFERED', 'ACTIVE') order by random() limit :n)
                        """)
                        .param("e", eventId)
                        .param("r", region.name())
                        .param("n", 1 + random.nextInt(4))
                        .update();
                bump("returned", returned);
            } else if (action < 90) {
                // a pause in wall time, as a stopped or partitioned gate has: from shorter than its lease to past
                // the lease and the grace
                stalledFor = 100 + random.nextInt(700);
                bump("stalled");
            } else if (action < 94 && region.regional()) {
                String other = "r" + (1 + random.nextInt(3));
                this.budgets.setDraining(EventId.of(eventId), new Region(other), random.nextBoolean());
                bump("drain-toggled");
            } else {
                // the coordinators' clock moves on past the offers' deadlines (100 ms)
                this.scenario.clock.advance(Duration.ofMillis(200));
                for (RegionBudgets.Budget b :
                        this.budgets.read(EventId.of(eventId), GRACE).budgets()) {
                    if (b.frozen() && !b.region().equals(region) && b.live() > 0) {
                        bump("frozen-expired", this.admissions.expireFrozenRegion(EventId.of(eventId), b.region()));
                    }
                }
                bump(
                        "reconciled",
                        this.budgets
                                .reconcileFrozen(region, EventId.of(eventId), GRACE)
                                .size());
            }
            check(eventId);
        }
    }

    private List<Grant> offer(
            String eventId,
            Region region,
            String owner,
            FencingGeneration generation,
            int n,
            int serial,
            boolean count) {
        List<Candidate> batch = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            batch.add(
                    new Candidate(EntryId.ofSequence(ENTRIES.incrementAndGet()), VisitorId.random(), serial * 10L + i));
        }
        Instant now = this.scenario.now();
        // offers expire at once, so frozen regions' grants can be ended by the others
        List<Grant> made =
                this.grants.allocate(region, EventId.of(eventId), owner, generation, batch, now, now.plusMillis(100));
        if (count) {
            bump(made.isEmpty() ? "offer-refused" : "offered", Math.max(1, made.size()));
        }
        return made;
    }

    /** The invariant, read in one statement (one snapshot). */
    private void check(String eventId) {
        record Row(String region, long slots, long live, long ceiling) {}
        List<Row> rows = this.jdbc
                .sql("""
                with live as (select region, count(*) as n from grants
                              where event_id = :e and state in ('OFFERED', 'ACTIVE') group by region)
                select coalesce(b.region, l.region) as region, coalesce(b.slots, 0) as slots, coalesce(l.n, 0) as live,
                    (select max_active_sessions from events where event_id = :e) as ceiling
                from region_budgets b full join live l on l.region = b.region and b.event_id = :e
                where b.event_id = :e or b.event_id is null
                """)
                .param("e", eventId)
                .query((rs, i) ->
                        new Row(rs.getString("region"), rs.getLong("slots"), rs.getLong("live"), rs.getLong("ceiling")))
                .list();
        long held = 0;
        long live = 0;
        long ceiling = rows.isEmpty() ? Long.MAX_VALUE : rows.get(0).ceiling();
        for (Row row : rows) {
            live += row.live();
            if (row.region().isEmpty()) {
                held += row.live();
            } else {
                held += Math.max(row.slots(), row.live());
                assertThat(row.live())
                        .as("region %s's live grants within its slots", row.region())
                        .isLessThanOrEqualTo(row.slots());
            }
        }
        assertThat(held).as("the ledger holds at most the ceiling").isLessThanOrEqualTo(ceiling);
        assertThat(live).as("live grants of the event").isLessThanOrEqualTo(ceiling);
        bump("checks");
    }

    private void bump(String name) {
        bump(name, 1);
    }

    private void bump(String name, long by) {
        this.counts.computeIfAbsent(name, k -> new AtomicLong()).addAndGet(by);
    }

    private long count(String name) {
        return this.counts.getOrDefault(name, new AtomicLong()).get();
    }
}
