package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.contract.queue.QueueCounts;
import dev.waitroom.coordinator.SqlLiterals;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.grants.QueueSync;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.testsupport.queue.FakeQueueEntry;
import dev.waitroom.testsupport.queue.FakeQueueService;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Seeded random sequences of join, tick (two coordinators), claim, renew, leave, purchase, time passing, a leader
 * whose lease runs out while it still believes it leads, a leader that is killed, and queue outages. The invariants
 * of docs/design/architecture.md#invariants are checked after every step; a failure names the seed (rerun with
 * -Dwaitroom.seed=...).
 */
@CoordinatorTest
class RandomizedInvariantTests {

    private static final int SEQUENCES = 6;

    private static final int STEPS = 250;

    private static final String LIVE = SqlLiterals.list(GrantState.LIVE);

    /** The states a shopping session ends in. */
    private static final String SESSION_ENDED = SqlLiterals.list(GrantState.ACTIVE.next());

    @Autowired
    Scenario scenario;

    @Autowired
    Admissions admissions;

    @Autowired
    QueueSync sync;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    RedissonClient redisson;

    @Test
    void invariantsHoldAfterEveryStepOfRandomSequences() {
        long base = Long.getLong("waitroom.seed", new Random().nextLong());
        for (int i = 0; i < SEQUENCES; i++) {
            long seed = base + i;
            try {
                run(seed);
            } catch (AssertionError | RuntimeException ex) {
                throw new AssertionError(
                        "Randomized sequence failed with seed " + seed + " (rerun with -Dwaitroom.seed=" + seed + "): "
                                + ex.getMessage(),
                        ex);
            }
        }
    }

    private void run(long seed) {
        Random random = new Random(seed);
        FakeQueueService queue = this.scenario.queue;
        int ceiling = 1 + random.nextInt(8);
        ExpiredOfferPolicy policy = random.nextBoolean() ? ExpiredOfferPolicy.REQUEUE_ONCE : ExpiredOfferPolicy.DROP;
        AfterPurchase after = random.nextBoolean() ? AfterPurchase.RELEASE : AfterPurchase.KEEP;
        String eventId = this.scenario.openNewEvent(
                "rand", Scenario.config(ceiling, 50, 1 + random.nextInt(5), 10, 20, 40, policy, after));
        List<AdmissionTicker> coordinators =
                new ArrayList<>(List.of(coordinator("a-" + seed), coordinator("b-" + seed)));
        List<String> visitors = new ArrayList<>();
        try {
            for (int step = 0; step < STEPS; step++) {
                int action = random.nextInt(100);
                try {
                    if (action < 15) {
                        visitors.addAll(this.scenario.join(eventId, 1 + random.nextInt(4)));
                    } else if (action < 40) {
                        AdmissionTicker c = coordinators.get(random.nextInt(coordinators.size()));
                        this.scenario.tick(c, eventId, Duration.ofMillis(200 + random.nextInt(1000)));
                    } else if (action < 55 && !visitors.isEmpty()) {
                        this.admissions.claim(EventId.of(eventId), pick(random, eventId, GrantState.OFFERED, visitors));
                    } else if (action < 62 && !visitors.isEmpty()) {
                        this.admissions.renew(EventId.of(eventId), pick(random, eventId, GrantState.ACTIVE, visitors));
                    } else if (action < 70 && !visitors.isEmpty()) {
                        this.admissions.leave(EventId.of(eventId), pick(random, eventId, GrantState.ACTIVE, visitors));
                    } else if (action < 75) {
                        purchaseSomething(random, eventId);
                    } else if (action < 83) {
                        this.scenario.clock.advance(Duration.ofSeconds(random.nextInt(15)));
                    } else if (action < 88) {
                        // the leader's lease runs out on database time while it still believes it leads
                        this.jdbc
                                .sql("update leases set expires_at = clock_timestamp() where event_id = :e")
                                .param("e", eventId)
                                .update();
                    } else if (action < 91) {
                        // kill a coordinator: it resigns and a fresh instance takes its place
                        int victim = random.nextInt(coordinators.size());
                        coordinators.get(victim).resign();
                        coordinators.set(victim, coordinator("r" + step + "-" + seed));
                    } else if (action < 95) {
                        queue.unavailable(!random.nextBoolean());
                    } else {
                        this.admissions.expireOverdue(EventId.of(eventId), 100);
                    }
                } catch (CoordinatorException expected) {
                    // no offer, expired offer, queue down...: the invariants below still have to hold
                }
                check(eventId, ceiling, step, action);
            }
            queue.unavailable(false);
            this.sync.reconcile(EventId.of(eventId), 1000);
            System.out.printf(
                    "sequence %d: %d grants, %d generations, %d sessions, released %s%n",
                    seed,
                    this.jdbc
                            .sql("select count(*) from grants where event_id = :e")
                            .param("e", eventId)
                            .query(Long.class)
                            .single(),
                    this.jdbc
                            .sql("select count(distinct generation) from grants where event_id = :e")
                            .param("e", eventId)
                            .query(Long.class)
                            .single(),
                    this.jdbc
                            .sql("select count(session_id) from grants where event_id = :e")
                            .param("e", eventId)
                            .query(Long.class)
                            .single(),
                    this.scenario.grants.releasedByReason(EventId.of(eventId)));
            QueueCounts counts = this.scenario.directory.counts(EventId.of(eventId));
            var live = this.scenario.grants.count(EventId.of(eventId));
            assertThat(counts.offered())
                    .as("queue offered vs grants after reconciliation")
                    .isEqualTo(live.offered());
            assertThat(counts.active())
                    .as("queue active vs grants after reconciliation")
                    .isEqualTo(live.active());
        } finally {
            queue.unavailable(false);
            coordinators.forEach(AdmissionTicker::resign);
        }
    }

    private AdmissionTicker coordinator(String owner) {
        // Lease renewal follows the test clock: a coordinator whose lease was cut on database time keeps writing with
        // its old generation until its next renewal is due (up to a second of test time): a paused leader waking up.
        return this.scenario.coordinator(owner, Duration.ofSeconds(5), Duration.ofSeconds(1), () -> {
            java.time.Instant now = this.scenario.clock.instant();
            return now.getEpochSecond() * 1_000_000_000L + now.getNano();
        });
    }

    private void purchaseSomething(Random random, String eventId) {
        List<UUID> sessions = this.jdbc
                .sql("select session_id from grants where event_id = :e and session_id is not null order by id")
                .param("e", eventId)
                .query(UUID.class)
                .list();
        if (!sessions.isEmpty()) {
            SessionId session = new SessionId(sessions.get(random.nextInt(sessions.size())));
            this.admissions.purchaseCompleted(EventId.of(eventId), session, "order-" + session);
        }
    }

    /** Mostly a visitor in {@code state} (so claims and renewals mostly hit), sometimes anyone. */
    private VisitorId pick(Random random, String eventId, GrantState state, List<String> visitors) {
        List<String> inState = this.jdbc
                .sql("select visitor from grants where event_id = :e and state = :s order by visitor")
                .param("e", eventId)
                .param("s", state.name())
                .query(String.class)
                .list();
        List<String> from = !inState.isEmpty() && random.nextInt(10) < 8 ? inState : visitors;
        return new VisitorId(from.get(random.nextInt(from.size())));
    }

    private void check(String eventId, int ceiling, int step, int action) {
        String at = "step " + step + " (action " + action + ")";
        long live = this.jdbc
                .sql("select count(*) from grants where event_id = :e and state in (" + LIVE + ")")
                .param("e", eventId)
                .query(Long.class)
                .single();
        assertThat(live).as("live grants within the ceiling at " + at).isLessThanOrEqualTo(ceiling);
        long doubled = this.jdbc
                .sql("""
                select count(*) from (select visitor from grants where event_id = :e and state in (%s)
                group by visitor having count(*) > 1) d
                """.formatted(LIVE))
                .param("e", eventId)
                .query(Long.class)
                .single();
        assertThat(doubled).as("no visitor with two live grants at " + at).isZero();
        long unaccounted = this.jdbc
                .sql("""
                select count(*) from grants where event_id = :e and state not in (%s)
                and (released_at is null or release_reason is null)
                """.formatted(LIVE))
                .param("e", eventId)
                .query(Long.class)
                .single();
        assertThat(unaccounted)
                .as("every ended grant says when and why it released capacity at " + at)
                .isZero();
        List<UUID> ended = this.jdbc
                .sql("""
                select session_id from grants where event_id = :e and session_id is not null
                and state in (%s)
                """.formatted(SESSION_ENDED))
                .param("e", eventId)
                .query(UUID.class)
                .list();
        for (UUID session : ended) {
            String key = RedisKeys.session(EventId.of(eventId), session.toString());
            assertThat(this.redisson.getBucket(key, StringCodec.INSTANCE).isExists())
                    .as("a released session is not live in the registry at " + at)
                    .isFalse();
        }
        List<String> granted = this.jdbc
                .sql("select entry_id from grants where event_id = :e")
                .param("e", eventId)
                .query(String.class)
                .list();
        long highestOffered = this.jdbc
                .sql("select coalesce(max(order_key), 0) from grants where event_id = :e")
                .param("e", eventId)
                .query(Long.class)
                .single();
        long lowestWaiting = this.scenario.queue.waitingFirstTime(eventId).stream()
                .filter(e -> !granted.contains(e.entryId()))
                .mapToLong(FakeQueueEntry::orderKey)
                .min()
                .orElse(Long.MAX_VALUE);
        assertThat(lowestWaiting)
                .as("offers follow the queue order (nobody skipped) at " + at)
                .isGreaterThan(highestOffered);
    }
}
