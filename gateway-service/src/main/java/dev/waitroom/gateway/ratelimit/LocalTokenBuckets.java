package dev.waitroom.gateway.ratelimit;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Token buckets per key held in this gateway instance: no network call per request. Bounded: when
 * more than {@code maxKeys} keys are held, buckets idle long enough to be full again are dropped
 * (forgetting a full bucket changes nothing), and if that is not enough the oldest half goes.
 */
final class LocalTokenBuckets {

	private final double replenishPerSecond;

	private final double capacity;

	private final int maxKeys;

	private final LongSupplier nanoTime;

	private final ConcurrentHashMap<String, Bucket> buckets = new ConcurrentHashMap<>();

	LocalTokenBuckets(double replenishPerSecond, double capacity, int maxKeys, LongSupplier nanoTime) {
		if (!(replenishPerSecond > 0) || capacity < 1 || maxKeys < 1) {
			throw new IllegalArgumentException("need replenishPerSecond > 0, capacity >= 1, maxKeys >= 1");
		}
		this.replenishPerSecond = replenishPerSecond;
		this.capacity = capacity;
		this.maxKeys = maxKeys;
		this.nanoTime = nanoTime;
	}

	/** Takes {@code tokens} from the key's bucket; false (nothing taken) when it holds fewer. */
	boolean tryTake(String key, double tokens) {
		long now = nanoTime.getAsLong();
		Bucket bucket = buckets.get(key);
		if (bucket == null) {
			if (buckets.size() >= maxKeys) {
				evict(now);
			}
			bucket = buckets.computeIfAbsent(key, k -> new Bucket(capacity, now));
		}
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
	long secondsUntil(double tokens) {
		return Math.max(1, (long) Math.ceil(tokens / replenishPerSecond));
	}

	int size() {
		return buckets.size();
	}

	private void evict(long now) {
		long refillNanos = (long) (capacity / replenishPerSecond * 1e9);
		buckets.values().removeIf(b -> now - b.updatedAt >= refillNanos);
		if (buckets.size() >= maxKeys) {
			long cutoff = buckets.values().stream().mapToLong(b -> b.updatedAt).sorted().skip(buckets.size() / 2)
				.findFirst()
				.orElse(now);
			buckets.values().removeIf(b -> b.updatedAt <= cutoff);
		}
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
