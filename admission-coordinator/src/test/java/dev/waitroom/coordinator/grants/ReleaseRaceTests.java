package dev.waitroom.coordinator.grants;

import static org.assertj.core.api.Assertions.assertThat;

import dev.waitroom.contract.AfterPurchase;
import dev.waitroom.contract.EventId;
import dev.waitroom.contract.ExpiredOfferPolicy;
import dev.waitroom.contract.RedisKeys;
import dev.waitroom.coordinator.ids.SessionId;
import dev.waitroom.coordinator.support.CoordinatorTest;
import dev.waitroom.coordinator.support.Scenario;
import dev.waitroom.tokens.VisitorId;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.springframework.beans.factory.annotation.Autowired;

/** Leave, purchase-complete and the expiry worker race for the same sessions: capacity returns exactly once. */
@CoordinatorTest
class ReleaseRaceTests {

    @Autowired
    Scenario scenario;

    @Autowired
    Admissions admissions;

    @Autowired
    RedissonClient redisson;

    @Autowired
    MeterRegistry meters;

    @Test
    void leavePurchaseAndExpiryRacingReleaseEachSessionExactlyOnce() throws Exception {
        int sessions = 40;
        String eventId = this.scenario.openNewEvent(
                "release",
                Scenario.config(sessions, 1000, 100, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.RELEASE));
        List<String> visitors = this.scenario.join(eventId, sessions);
        assertThat(this.scenario.tickUntilLive(eventId, sessions).offered()).isEqualTo(sessions);
        List<Admission> admitted = new ArrayList<>();
        for (String visitor : visitors) {
            admitted.add(this.admissions.claim(EventId.of(eventId), new VisitorId(visitor)));
        }
        assertThat(this.scenario.grants.count(EventId.of(eventId)).active()).isEqualTo(sessions);
        this.scenario.clock.advance(Duration.ofSeconds(61)); // every session is now overdue as well

        ExecutorService pool = Executors.newFixedThreadPool(3);
        CountDownLatch start = new CountDownLatch(1);
        Future<Integer> leaves = pool.submit(() -> {
            start.await();
            int won = 0;
            for (String visitor : visitors) {
                won += this.admissions.leave(EventId.of(eventId), new VisitorId(visitor)) ? 1 : 0;
            }
            return won;
        });
        Future<Integer> purchases = pool.submit(() -> {
            start.await();
            for (Admission a : admitted) {
                this.admissions.purchaseCompleted(EventId.of(eventId), a.sessionId(), "order-" + a.sessionId());
            }
            return 0;
        });
        Future<Integer> expiries = pool.submit(() -> {
            start.await();
            int won = 0;
            for (int i = 0; i < 5; i++) {
                won += this.admissions.expireOverdue(EventId.of(eventId), 7);
            }
            return won;
        });
        start.countDown();
        int leaveWins = leaves.get();
        purchases.get();
        int expiryWins = expiries.get();
        pool.shutdown();

        Map<String, Long> byReason = this.scenario.grants.releasedByReason(EventId.of(eventId));
        long purchaseWins = byReason.getOrDefault("PURCHASED", 0L);
        System.out.printf("release race: leave %d, purchase %d, expiry %d%n", leaveWins, purchaseWins, expiryWins);
        long expired = byReason.getOrDefault("SESSION_EXPIRED", 0L);
        assertThat((long) leaveWins).isEqualTo(byReason.getOrDefault("LEFT", 0L));
        // the expiry pass also releases sessions whose purchase was recorded before purchaseCompleted released them
        // (releasePurchased): those count as the worker's wins under reason PURCHASED
        assertThat((long) expiryWins).isBetween(expired, expired + purchaseWins);
        assertThat(leaveWins + expiryWins).isLessThanOrEqualTo(sessions);
        assertThat(byReason.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(sessions);
        double counted = this.meters.find("waitroom.coordinator.releases").tag("event", eventId).counters().stream()
                .mapToDouble(c -> c.count())
                .sum();
        assertThat(counted).isEqualTo(sessions);
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();
        for (Admission a : admitted) {
            assertThat(this.redisson
                            .getBucket(key(eventId, a.sessionId()), StringCodec.INSTANCE)
                            .isExists())
                    .isFalse();
        }
    }

    @Test
    void purchaseUnderKeepPolicyRecordsTheOrderAndKeepsTheSession() {
        String eventId = this.scenario.openNewEvent(
                "keep", Scenario.config(2, 1000, 100, 30, 60, 120, ExpiredOfferPolicy.DROP, AfterPurchase.KEEP));
        String visitor = this.scenario.join(eventId, 1).get(0);
        this.scenario.tickUntilLive(eventId, 1);
        Admission a = this.admissions.claim(EventId.of(eventId), new VisitorId(visitor));

        assertThat(this.admissions.purchaseCompleted(EventId.of(eventId), a.sessionId(), "order-1"))
                .isEqualTo(GrantState.ACTIVE);
        assertThat(this.admissions.purchaseCompleted(EventId.of(eventId), a.sessionId(), "order-1"))
                .isEqualTo(GrantState.ACTIVE);
        assertThat(this.redisson
                        .getBucket(key(eventId, a.sessionId()), StringCodec.INSTANCE)
                        .isExists())
                .isTrue();

        this.scenario.clock.advance(Duration.ofSeconds(61));
        assertThat(this.admissions.expireOverdue(EventId.of(eventId), 10)).isEqualTo(1);
        assertThat(this.scenario.grants.count(EventId.of(eventId)).live()).isZero();
        // the queue entry ends COMPLETED, not EXPIRED: the shopper bought something
        assertThat(this.scenario.queue.entry(eventId, visitor).state().name()).isEqualTo("COMPLETED");
    }

    private static String key(String eventId, SessionId sessionId) {
        return RedisKeys.session(EventId.of(eventId), sessionId.toString());
    }
}
