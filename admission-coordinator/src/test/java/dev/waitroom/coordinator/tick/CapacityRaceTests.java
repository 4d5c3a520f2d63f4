package dev.waitroom.coordinator.tick;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.coordinator.grants.Admissions;
import dev.waitroom.coordinator.grants.GrantState;
import dev.waitroom.coordinator.problems.CoordinatorException;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * Two coordinator instances race for one event over thousands of ticks, with short leases and a queue that now and
 * then stalls a leader between its lease check and its allocation (so it wakes up stale). Meanwhile shoppers claim
 * and leave. Live grants must never exceed the ceiling.
 */
@CoordinatorTest
class CapacityRaceTests {

    private static final int CEILING = 15;

    private static final int TICKS_PER_COORDINATOR = 1500;

    @Autowired
    Scenario scenario;

    @Autowired
    Admissions admissions;

    @Autowired
    JdbcClient jdbc;

    @AfterEach
    void calmQueue() {
        this.scenario.queue.stallCandidates(0, 0);
    }

    @Test
    void twoCoordinatorsRacingNeverOfferAboveTheCeiling() throws Exception {
        String eventId = this.scenario.openNewEvent(
                "race",
                Scenario.config(CEILING, 1000, 10, 30, 600, 600, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
        this.scenario.join(eventId, 6000);
        this.scenario.fullRate();
        this.scenario.queue.stallCandidates(0.2, Duration.ofMillis(60).toNanos());

        AtomicBoolean running = new AtomicBoolean(true);
        AtomicLong maxLive = new AtomicLong();
        AtomicInteger samples = new AtomicInteger();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        List<Thread> racers = List.of("racer-a", "racer-b").stream()
                .map(owner -> {
                    AdmissionTicker ticker =
                            this.scenario.coordinator(owner, Duration.ofMillis(40), Duration.ZERO, System::nanoTime);
                    return new Thread(
                            () -> {
                                try {
                                    for (int i = 0; i < TICKS_PER_COORDINATOR; i++) {
                                        this.scenario.clock.advance(Duration.ofMillis(20));
                                        this.scenario.healthy();
                                        ticker.tick(this.scenario.management.get(EventId.of(eventId)));
                                    }
                                } catch (Throwable t) {
                                    failures.add(t);
                                }
                            },
                            owner);
                })
                .toList();
        Thread monitor = new Thread(
                () -> {
                    while (running.get()) {
                        long live =
                                this.scenario.grants.count(EventId.of(eventId)).live();
                        maxLive.accumulateAndGet(live, Math::max);
                        samples.incrementAndGet();
                    }
                },
                "monitor");
        Thread shoppers = new Thread(
                () -> {
                    while (running.get()) {
                        try {
                            churn(eventId);
                        } catch (CoordinatorException expected) {
                            // offers expire or get claimed under our feet: that is the point
                        }
                    }
                },
                "shoppers");

        monitor.start();
        shoppers.start();
        racers.forEach(Thread::start);
        for (Thread racer : racers) {
            racer.join();
        }
        running.set(false);
        monitor.join();
        shoppers.join();

        assertThat(failures).isEmpty();
        long total = this.jdbc
                .sql("select count(*) from grants where event_id = :e")
                .param("e", eventId)
                .query(Long.class)
                .single();
        long generations = this.jdbc
                .sql("select count(distinct generation) from grants where event_id = :e")
                .param("e", eventId)
                .query(Long.class)
                .single();
        System.out.printf(
                "race: %d grants over %d generations, max live %d (ceiling %d), %d samples%n",
                total, generations, maxLive.get(), CEILING, samples.get());
        assertThat(maxLive.get()).isLessThanOrEqualTo(CEILING);
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isLessThanOrEqualTo(CEILING);
        assertThat(total).as("capacity was recycled many times").isGreaterThan(CEILING * 5L);
        assertThat(generations).as("leadership changed hands during the race").isGreaterThan(1);
    }

    /** One shopper action: claim a random outstanding offer, or leave a random active session. */
    private void churn(String eventId) {
        boolean claim = ThreadLocalRandom.current().nextBoolean();
        List<String> visitors = this.jdbc
                .sql("select visitor from grants where event_id = :e and state = :s limit 5")
                .param("e", eventId)
                .param("s", (claim ? GrantState.OFFERED : GrantState.ACTIVE).name())
                .query(String.class)
                .list();
        for (String visitor : visitors) {
            if (claim) {
                this.admissions.claim(EventId.of(eventId), new VisitorId(visitor));
            } else {
                this.admissions.leave(EventId.of(eventId), new VisitorId(visitor));
            }
        }
    }
}
