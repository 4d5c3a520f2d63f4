package dev.waitroom.tokens.internal;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Predicate;

/**
 * Bounded cache of verified results keyed by the SHA-256 of the token string; every entry dies at
 * its deadline. Callers put only successes. When full, dead entries are swept first, then arbitrary
 * live ones until a tenth of the room is free (a miss only costs a re-verification). Sweeps are rare
 * (once per tenth of the capacity inserted) and hold a lock only while they run.
 * Not API: may change without notice.
 *
 * @param <V> the verified value
 */
public final class VerifiedTokenCache<V> {

    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 unavailable", e);
        }
    });

    private final int maxEntries;
    private final ConcurrentHashMap<TokenHash, Entry<V>> entries = new ConcurrentHashMap<>();
    private final ReentrantLock sweepLock = new ReentrantLock();

    public VerifiedTokenCache(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("maxEntries must be positive");
        }
        this.maxEntries = maxEntries;
    }

    public static TokenHash hash(String token) {
        byte[] d = SHA256.get().digest(token.getBytes(StandardCharsets.UTF_8));
        return new TokenHash(longAt(d, 0), longAt(d, 8), longAt(d, 16), longAt(d, 24));
    }

    /** The live value for {@code hash}, or null (a dead entry is removed). */
    public V get(TokenHash hash, Instant now) {
        Entry<V> entry = entries.get(hash);
        if (entry == null) {
            return null;
        }
        if (now.getEpochSecond() >= entry.deadlineEpochSecond) {
            entries.remove(hash, entry);
            return null;
        }
        return entry.value;
    }

    public void put(TokenHash hash, V value, Instant deadline, Instant now) {
        if (!now.isBefore(deadline)) {
            return;
        }
        if (entries.size() >= maxEntries) {
            makeRoom(now);
        }
        entries.put(hash, new Entry<>(value, deadline.getEpochSecond()));
    }

    public int size() {
        return entries.size();
    }

    /** Drops every entry whose value matches (a pass over the whole map: for rare events, such as a key's removal). */
    public void removeIf(Predicate<? super V> condition) {
        entries.values().removeIf(entry -> condition.test(entry.value));
    }

    /** Drops the entry for {@code hash} if it still holds {@code value}. */
    public void remove(TokenHash hash, V value) {
        Entry<V> entry = entries.get(hash);
        if (entry != null && entry.value == value) {
            entries.remove(hash, entry);
        }
    }

    private void makeRoom(Instant now) {
        // blocking, and re-checked inside: the bound then holds up to one in-flight put per thread
        sweepLock.lock();
        try {
            if (entries.size() < maxEntries) {
                return;
            }
            long nowSecond = now.getEpochSecond();
            entries.values().removeIf(e -> nowSecond >= e.deadlineEpochSecond);
            int target = maxEntries - Math.max(1, maxEntries / 10);
            Iterator<Map.Entry<TokenHash, Entry<V>>> it = entries.entrySet().iterator();
            while (entries.size() > target && it.hasNext()) {
                it.next();
                it.remove();
            }
        } finally {
            sweepLock.unlock();
        }
    }

    private static long longAt(byte[] bytes, int offset) {
        long value = 0;
        for (int i = offset; i < offset + 8; i++) {
            value = (value << 8) | (bytes[i] & 0xFF);
        }
        return value;
    }

    /** The SHA-256 of a token, as four longs (cheap equals and hashCode). */
    public record TokenHash(long a, long b, long c, long d) {}

    private record Entry<V>(V value, long deadlineEpochSecond) {}
}
