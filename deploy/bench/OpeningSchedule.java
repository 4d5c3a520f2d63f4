import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * When each browser of the opening minute arrives (deploy/bench/README.md, "The opening minute"): N arrivals over S
 * seconds, twice the average rate in the first sixth (the rush when the sale's page goes live: N/3 arrivals in S/6),
 * the rest spread over the other five sixths (0.8 times the average). Within each part the arrivals are a Poisson
 * process with a fixed count (sorted uniform times), so the load is as bursty as real arrivals and every run of the
 * same seed sends the same schedule. Open loop: the client sends each join at its time, whatever earlier ones did.
 * JDK only, so deploy's tests compile and check it without the client's libraries.
 */
final class OpeningSchedule {

    private OpeningSchedule() {}

    /** The arrivals of the rush, the first sixth of the phase: a third of the visitors, twice the average rate. */
    static int rushVisitors(int visitors) {
        return (int) Math.round(visitors / 3.0);
    }

    /** The rush's length: the first sixth of the phase. */
    static long rushNanos(long seconds) {
        return seconds * 1_000_000_000L / 6;
    }

    /** Every visitor's arrival, in nanoseconds from the start of the phase, ascending; visitor i joins at [i]. */
    static long[] arrivalsNanos(int visitors, long seconds, long seed) {
        if (visitors < 1 || seconds < 1) {
            throw new IllegalArgumentException("need at least one visitor and one second");
        }
        long total = seconds * 1_000_000_000L;
        long rush = rushNanos(seconds);
        int early = rushVisitors(visitors);
        SplittableRandom random = new SplittableRandom(seed);
        long[] at = new long[visitors];
        for (int i = 0; i < visitors; i++) {
            at[i] = i < early ? random.nextLong(rush) : rush + random.nextLong(total - rush);
        }
        Arrays.sort(at);
        return at;
    }
}
