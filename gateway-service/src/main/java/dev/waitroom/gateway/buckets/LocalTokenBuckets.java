package dev.waitroom.gateway.buckets;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Token buckets per key held in this gateway instance: no network call per request. Bounded by a
 * Caffeine cache: a bucket idle long enough to be full again expires (forgetting a full bucket
 * changes nothing), and beyond {@code maxKeys} the least valuable go first. Eviction runs in
 * Caffeine's maintenance, amortised and off the request's critical section; nothing sorts or scans
 * on an event-loop thread.
 */
public final class LocalTokenBuckets {

    private final double replenishPerSecond;

    private final double capacity;

    private final LongSupplier nanoTime;

    private final Cache<String, Bucket> buckets;

    public LocalTokenBuckets(double replenishPerSecond, double capacity, int maxKeys, LongSupplier nanoTime) {
        if (!(replenishPerSecond > 0) || capacity < 1 || maxKeys < 1) {
            throw new IllegalArgumentException("need replenishPerSecond > 0, capacity >= 1, maxKeys >= 1");
        }
        this.replenishPerSecond = replenishPerSecond;
        this.capacity = capacity;
        this.nanoTime = nanoTime;
        this.buckets = Caffeine.newBuilder()
                .maximumSize(maxKeys)
                .expireAfterAccess(Duration.ofNanos((long) Math.ceil(capacity / replenishPerSecond * 1e9)))
                .ticker(nanoTime::getAsLong)
                .executor(Runnable::run)
                .build();
    }

    /** Takes {@code tokens} from the key's bucket; false (nothing taken) when it holds fewer. */
    public boolean tryTake(String key, double tokens) {
        long now = nanoTime.getAsLong();
        Bucket bucket = buckets.get(key, k -> new Bucket(capacity, now));
        synchronized (bucket) {
            bucket.refill(now, replenishPerSecond, capacity);
            if (bucket.tokens >= tokens) {
                bucket.tokens -= tokens;
                return true;
            }
            return false;
        }
    }

    /** Seconds until the key's bucket holds {@code tokens} again (at least 1). */
    public long secondsUntil(double tokens) {
        return Math.max(1, (long) Math.ceil(tokens / replenishPerSecond));
    }

    /** Buckets held now, after pending maintenance (for tests and gauges). */
    public long size() {
        buckets.cleanUp();
        return buckets.estimatedSize();
    }

    private static final class Bucket {

        double tokens;

        long updatedAt;

        Bucket(double tokens, long now) {
            this.tokens = tokens;
            this.updatedAt = now;
        }

        void refill(long now, double perSecond, double capacity) {
            long elapsed = now - updatedAt;
            if (elapsed > 0) {
                tokens = Math.min(capacity, tokens + elapsed / 1e9 * perSecond);
                updatedAt = now;
            }
        }
    }
}
