package dev.waitroom.contract.queue;

import dev.waitroom.contract.MalformedValueException;
import java.util.Locale;

/**
 * The offer pace the coordinator measured (docs/design/estimates.md), pushed with the event state and handed to the edge in
 * the snapshot: offers counted per {@value #BUCKET_SECONDS} s bucket since the sale opened or admissions last resumed,
 * over at most the last {@value #WINDOW_BUCKETS} buckets.
 *
 * @param perSecond offers per second, the mean over the measured buckets
 * @param variance the variance of the offers in one second (the bucket counts' sample variance over the bucket
 *     length): offers in t seconds are about N(perSecond t, variance t)
 * @param recentPerSecond offers per second over the last {@value #RECENT_BUCKETS} buckets
 * @param buckets how many buckets were measured; fewer than {@value #MIN_BUCKETS} is too few to trust
 * @param floorPerSecond the slowest pace admissions run at while booking is healthy: the rate in force, or the
 *     ceiling over the longest a slot stays taken (offer TTL plus the longest session) when that is lower; 0 unknown
 * @param resumed admissions resumed after a pause or a sold-out round a short while ago
 */
public record Pace(
        double perSecond,
        double variance,
        double recentPerSecond,
        int buckets,
        double floorPerSecond,
        boolean resumed) {

    public static final int BUCKET_SECONDS = 5;

    /** Five minutes of buckets at most. */
    public static final int WINDOW_BUCKETS = 60;

    /** The short window that tells a change of pace: 30 s. */
    public static final int RECENT_BUCKETS = 6;

    /** Below this many buckets (30 s) the pace is still being measured. */
    public static final int MIN_BUCKETS = 6;

    /**
     * This pace when its numbers are sound, else a {@link MalformedValueException} naming the fault: every rate and
     * the variance finite and {@code >= 0}, buckets in {@code 0..WINDOW_BUCKETS}.
     */
    public Pace validated() {
        if (!sound(perSecond) || !sound(variance) || !sound(recentPerSecond) || !sound(floorPerSecond)) {
            throw new MalformedValueException(
                    "pace.perSecond, pace.variance, pace.recentPerSecond and pace.floorPerSecond are finite numbers >= 0");
        }
        if (buckets < 0 || buckets > WINDOW_BUCKETS) {
            throw new MalformedValueException("pace.buckets is 0.." + WINDOW_BUCKETS);
        }
        return this;
    }

    /**
     * The pace of offers counted per bucket, oldest first, the last the most recent complete bucket; at most the
     * last {@value #WINDOW_BUCKETS} count.
     */
    public static Pace fromBuckets(long[] counts, double floorPerSecond, boolean resumed) {
        int from = Math.max(0, counts.length - WINDOW_BUCKETS);
        int n = counts.length - from;
        if (n == 0) {
            return new Pace(0, 0, 0, 0, floorPerSecond, resumed);
        }
        double sum = 0;
        for (int i = from; i < counts.length; i++) {
            sum += counts[i];
        }
        double mean = sum / n;
        double squares = 0;
        for (int i = from; i < counts.length; i++) {
            squares += (counts[i] - mean) * (counts[i] - mean);
        }
        double bucketVariance = n > 1 ? squares / (n - 1) : mean;
        int recentFrom = Math.max(from, counts.length - RECENT_BUCKETS);
        double recent = 0;
        for (int i = recentFrom; i < counts.length; i++) {
            recent += counts[i];
        }
        return new Pace(
                mean / BUCKET_SECONDS,
                bucketVariance / BUCKET_SECONDS,
                recent / ((counts.length - recentFrom) * (double) BUCKET_SECONDS),
                n,
                floorPerSecond,
                resumed);
    }

    /** Whether enough buckets were measured to estimate from. */
    public boolean measured() {
        return buckets >= MIN_BUCKETS && perSecond > 0;
    }

    /** The compact form the queue-service keeps in Redis; {@link #decode} reads it back. */
    public String encode() {
        return String.format(
                Locale.ROOT,
                "%.4f|%.4f|%.4f|%d|%.4f|%d",
                perSecond,
                variance,
                recentPerSecond,
                buckets,
                floorPerSecond,
                resumed ? 1 : 0);
    }

    /** The pace of {@link #encode}, or null for null or an empty string (no pace pushed). */
    public static Pace decode(String encoded) {
        if (encoded == null || encoded.isEmpty()) {
            return null;
        }
        String[] f = encoded.split("\\|");
        if (f.length != 6) {
            throw new IllegalArgumentException("not an encoded pace: " + encoded);
        }
        return new Pace(
                Double.parseDouble(f[0]),
                Double.parseDouble(f[1]),
                Double.parseDouble(f[2]),
                Integer.parseInt(f[3]),
                Double.parseDouble(f[4]),
                "1".equals(f[5]));
    }

    private static boolean sound(double value) {
        return value >= 0 && !Double.isInfinite(value);
    }
}
