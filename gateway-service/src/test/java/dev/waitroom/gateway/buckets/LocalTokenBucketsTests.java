package dev.waitroom.gateway.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LocalTokenBucketsTests {

    final AtomicLong now = new AtomicLong(1_000_000_000L);

    @Test
    void allowsTheBurstThenTheReplenishRate() {
        LocalTokenBuckets buckets = new LocalTokenBuckets(2, 5, 100, now::get);
        for (int i = 0; i < 5; i++) {
            assertThat(buckets.tryTake("v", 1)).isTrue();
        }
        assertThat(buckets.tryTake("v", 1)).isFalse();
        assertThat(buckets.tryTake("other", 1)).as("buckets are per key").isTrue();
        now.addAndGet(500_000_000L);
        assertThat(buckets.tryTake("v", 1)).isTrue();
        assertThat(buckets.tryTake("v", 1)).isFalse();
        now.addAndGet(60_000_000_000L);
        for (int i = 0; i < 5; i++) {
            assertThat(buckets.tryTake("v", 1))
                    .as("refills up to the capacity only")
                    .isTrue();
        }
        assertThat(buckets.tryTake("v", 1)).isFalse();
        assertThat(buckets.secondsUntil(1)).isEqualTo(1);
    }

    @Test
    void concurrentRequestsOfOneVisitorNeverExceedTheBurst() throws Exception {
        LocalTokenBuckets buckets = new LocalTokenBuckets(1, 20, 100, now::get);
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return buckets.tryTake("v", 1);
                }));
            }
            start.countDown();
            int allowed = 0;
            for (Future<Boolean> result : results) {
                allowed += result.get() ? 1 : 0;
            }
            assertThat(allowed).isEqualTo(20);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void staysBoundedAndForgetsOnlyWhatNoLongerMatters() {
        LocalTokenBuckets buckets = new LocalTokenBuckets(1, 2, 1_000, now::get);
        for (int i = 0; i < 10_000; i++) {
            buckets.tryTake("v" + i, 1);
            now.addAndGet(1_000_000L);
        }
        assertThat(buckets.size()).isLessThanOrEqualTo(1_000);
        buckets.tryTake("hot", 2);
        assertThat(buckets.tryTake("hot", 1))
                .as("a recently used bucket is kept, still empty")
                .isFalse();
    }
}
