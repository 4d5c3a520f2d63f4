package dev.waitroom.queue.status;

/**
 * A coarse count: exact below 100, otherwise rounded to two significant digits, always containing the truth.
 * 12,345 ahead reads as 12,000..12,999.
 */
public record PositionBand(long aheadMin, long aheadMax) {

    public PositionBand {
        if (aheadMin < 0 || aheadMax < aheadMin) {
            throw new IllegalArgumentException("band must be 0 <= min <= max");
        }
    }

    public static PositionBand around(long exact) {
        if (exact < 100) {
            return new PositionBand(exact, exact);
        }
        long granularity = 1;
        for (long v = exact; v >= 100; v /= 10) {
            granularity *= 10;
        }
        long min = exact / granularity * granularity;
        return new PositionBand(min, min + granularity - 1);
    }
}
