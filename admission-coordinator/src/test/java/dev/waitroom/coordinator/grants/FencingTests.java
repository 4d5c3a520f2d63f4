package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.Region;
import dev.waitroom.contract.queue.EntryId;
import dev.waitroom.coordinator.lease.FencingGeneration;
import dev.waitroom.coordinator.lease.Leases;
import dev.waitroom.coordinator.queue.QueueDirectory.Candidate;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

@CoordinatorTest
class FencingTests {

    @Autowired
    Scenario scenario;

    @Autowired
    Leases leases;

    @Autowired
    Grants grants;

    @Autowired
    JdbcClient jdbc;

    @Autowired
    TransactionTemplate transactions;

    String eventId;

    @BeforeEach
    void setUp() {
        this.eventId = this.scenario.openNewEvent(
                "fence",
                Scenario.config(10, 100, 10, 30, 60, 120, ExpiredOfferPolicy.REQUEUE_ONCE, AfterPurchase.RELEASE));
    }

    @Test
    void leaseIsExclusiveRenewableAndTakeoverIncrementsTheGeneration() {
        FencingGeneration first = this.leases
                .acquireOrRenew(EventId.of(this.eventId), "a", Duration.ofMillis(300))
                .orElseThrow();
        assertThat(this.leases.acquireOrRenew(EventId.of(this.eventId), "b", Duration.ofSeconds(5)))
                .isEmpty();
        assertThat(this.leases.acquireOrRenew(EventId.of(this.eventId), "a", Duration.ofMillis(300)))
                .contains(first);

        FencingGeneration second = await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> this.leases.acquireOrRenew(EventId.of(this.eventId), "b", Duration.ofSeconds(5)),
                        Optional::isPresent)
                .orElseThrow();

        assertThat(second.value()).isEqualTo(first.value() + 1);
        assertThat(this.leases.acquireOrRenew(EventId.of(this.eventId), "a", Duration.ofSeconds(5)))
                .isEmpty();
    }

    @Test
    void leaseLongerThanFiveSecondsIsRefused() {
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> this.leases.acquireOrRenew(EventId.of(this.eventId), "a", Duration.ofSeconds(6)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aFormerLeadersWriteWithAnOldGenerationChangesZeroRows() {
        FencingGeneration old = this.leases
                .acquireOrRenew(EventId.of(this.eventId), "old", Duration.ofMillis(200))
                .orElseThrow();
        List<Candidate> batch = twoCandidates(this.scenario.join(this.eventId, 3));
        FencingGeneration current = await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> this.leases.acquireOrRenew(EventId.of(this.eventId), "new", Duration.ofSeconds(5)),
                        Optional::isPresent)
                .orElseThrow();

        List<Grant> stale = insert("old", old, batch);
        List<Grant> wrongOwner = insert("old", current, batch);
        List<Grant> oldGenerationRightOwner = insert("new", old, batch);

        assertThat(stale).isEmpty();
        assertThat(wrongOwner).isEmpty();
        assertThat(oldGenerationRightOwner).isEmpty();
        assertThat(this.grants.count(EventId.of(this.eventId)).live()).isZero();

        List<Grant> fresh = insert("new", current, batch);
        assertThat(fresh).hasSize(2).allSatisfy(g -> assertThat(g.generation()).isEqualTo(current));
    }

    @Test
    void anAllocationThatWouldPassTheCeilingInsertsNothing() {
        FencingGeneration gen = this.leases
                .acquireOrRenew(EventId.of(this.eventId), "leader", Duration.ofSeconds(5))
                .orElseThrow();
        List<String> visitors = this.scenario.join(this.eventId, 11);
        List<Candidate> eleven = new java.util.ArrayList<>();
        for (int i = 0; i < 11; i++) {
            eleven.add(new Candidate(EntryId.ofSequence(i + 1), new VisitorId(visitors.get(i)), i));
        }
        assertThat(insert("leader", gen, eleven)).isEmpty();
        assertThat(insert("leader", gen, eleven.subList(0, 10))).hasSize(10);
        assertThat(insert("leader", gen, eleven.subList(10, 11))).isEmpty();
        assertThat(this.grants.count(EventId.of(this.eventId)).live()).isEqualTo(10);
    }

    @Test
    void aVisitorNeverHoldsTwoLiveGrants() {
        FencingGeneration gen = this.leases
                .acquireOrRenew(EventId.of(this.eventId), "leader", Duration.ofSeconds(5))
                .orElseThrow();
        VisitorId visitor = new VisitorId(this.scenario.join(this.eventId, 1).get(0));
        assertThat(insert("leader", gen, List.of(new Candidate(EntryId.ofSequence(1), visitor, 1))))
                .hasSize(1);
        assertThat(insert("leader", gen, List.of(new Candidate(EntryId.ofSequence(2), visitor, 2))))
                .isEmpty();
        assertThat(insert(
                        "leader",
                        gen,
                        List.of(new Candidate(EntryId.ofSequence(1), new VisitorId("AAAAAAAAAAAAAAAAAAAAAA"), 1))))
                .isEmpty();
        assertThat(this.grants.count(EventId.of(this.eventId)).live()).isEqualTo(1);
    }

    @Test
    void aLeaderPausedWhileItHoldsTheEventLockLosesItBeforeTheNextLeaderAllocates() throws Exception {
        FencingGeneration old = this.leases
                .acquireOrRenew(EventId.of(this.eventId), "old", Duration.ofMillis(200))
                .orElseThrow();
        List<Candidate> batch = twoCandidates(this.scenario.join(this.eventId, 2));
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch wake = new CountDownLatch(1);
        // The old leader locks the event row to allocate, then stops sending anything (as a SIGSTOP leaves it), and
        // wakes up only once the new leader is done: its transaction must be gone by then.
        CompletableFuture<List<Grant>> paused =
                CompletableFuture.supplyAsync(() -> this.transactions.execute(status -> {
                    Grants.lockEvent(this.jdbc, EventId.of(this.eventId));
                    locked.countDown();
                    awaitQuietly(wake);
                    return insert("old", old, batch);
                }));
        assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();
        FencingGeneration current = await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> this.leases.acquireOrRenew(EventId.of(this.eventId), "new", Duration.ofSeconds(5)),
                        Optional::isPresent)
                .orElseThrow();

        // Bounded for the test's sake only: without the cut-off this waits for as long as the old leader sleeps.
        List<Grant> fresh = CompletableFuture.supplyAsync(() -> insert("new", current, batch))
                .get(20, TimeUnit.SECONDS);
        wake.countDown();

        assertThat(fresh).hasSize(2).allSatisfy(g -> assertThat(g.generation()).isEqualTo(current));
        assertThatThrownBy(() -> paused.get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOfSatisfying(
                        TransactionSystemException.class,
                        ex -> assertThat(ex.getApplicationException())
                                .hasStackTraceContaining("terminating connection due to idle-in-transaction timeout"));
        assertThat(this.grants.count(EventId.of(this.eventId)).live()).isEqualTo(2);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<Candidate> twoCandidates(List<String> visitors) {
        return List.of(
                new Candidate(EntryId.ofSequence(1), new VisitorId(visitors.get(0)), 1),
                new Candidate(EntryId.ofSequence(2), new VisitorId(visitors.get(1)), 2));
    }

    private List<Grant> insert(String owner, FencingGeneration generation, List<Candidate> batch) {
        return this.grants.allocate(
                Region.CENTRAL,
                EventId.of(this.eventId),
                owner,
                generation,
                batch,
                this.scenario.now(),
                this.scenario.now().plusSeconds(30));
    }
}
