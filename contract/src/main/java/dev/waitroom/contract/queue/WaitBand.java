package dev.waitroom.contract.queue;

/**
 * The one rule for a wait estimate (docs/design/estimates.md), which the queue-service and the gateway edge both apply through
 * {@link QueueStatus.EstimatedWait#of}: a 90 % band from the measured offer pace and its variability, not a fixed
 * factor.
 *
 * <p>A visitor with {@code a..b} waiting ahead is offered once {@code a+1..b+1} offers are made, fewer when people ahead
 * leave or let their place lapse. Offers in t seconds are about N(r t, s² t): the earliest t is where the fast pace's
 * upper 95 % quantile reaches the low end, the latest where the slow pace's lower 5 % quantile reaches the high end.
 * The fast and slow paces are the long-run pace widened by its own standard error (few buckets, wide band); when the
 * recent pace departs from it beyond its noise, the band reaches out to the recent pace and beyond; when admissions
 * just resumed, both ends widen. The band never gets
 * narrower than an honest floor around its middle, and a few seconds of slack cover the ticker, the offer outbox
 * and the poll. A band whose upper end passes 4 times its lower end plus 2 minutes is no estimate at all: it is not
 * shown ({@link QueueStatus.EstimatedWait#meaningful}). A meaningful band is shown up to {@link #SHOWN_SPREAD} of its
 * spread: the calibration measured in the rehearsal.
 */
final class WaitBand {

    /** Both tails of a 90 % band. */
    static final double Z = 1.645;

    /** People ahead who leave or lapse before their turn: the front may need this much fewer offers. */
    static final double DEPARTURES = 0.10;

    /** The ticker (250 ms), the outbox and a forwarded poll's age, either way. */
    static final double SLACK_SECONDS = 5;

    /** The band is at least -15 % .. +25 % of its middle. */
    static final double FLOOR_BELOW = 0.85;

    static final double FLOOR_ABOVE = 1.25;

    /** A recent pace this far (25 %) from the long-run pace, and beyond its own noise, is a change. */
    static final double CHANGE = 0.25;

    /** How much a caveat widens each end's pace. */
    static final double WIDEN = 1.3;

    /** Without a measured floor, while measuring, the slow end assumes a pace this many times below the rate. */
    static final double MEASURING_SPREAD = 4;

    /**
     * The share of the modelled band's spread, above its lower end, that is shown. The Gaussian late end over-covers
     * offers that come in clumps as held sessions end: in the full rehearsal of 2026-12-01, 98.9 % of the ranges shown
     * at a steady rate held the real wait, nine in ten of those waits fell in the lower 55 % of the band, and the median
     * width over max(wait, 60 s) was 1.07, against the musts' 90 % and 1. Replayed over that run and a second one
     * (rehearsed with 0.8: 94.5 % inside, width 1.00, the must's edge), 0.7 holds 96.3 % and 93.5 % inside at medians
     * of 0.75 and 0.88 (docs/design/estimates.md, "Calibration"). Whether a band means anything is judged before this, on the
     * modelled band, so calibration never turns a "not known yet" into a range.
     */
    static final double SHOWN_SPREAD = 0.7;

    /** Seconds no estimate reaches (about 36,000 years), so the bound's arithmetic cannot overflow. */
    static final double LONGEST = 1e12;

    private WaitBand() {}

    static QueueStatus.EstimatedWait of(QueueStatus.Position ahead, double rate, Pace pace) {
        if (!(rate > 0) || Double.isInfinite(rate)) {
            return null;
        }
        double fewest = (ahead.aheadMin() + 1) * (1 - DEPARTURES);
        double most = ahead.aheadMax() + 1;
        double central;
        double fast;
        double slow;
        double variance;
        EstimateCaveat caveat;
        if (pace == null || !pace.measured()) {
            caveat = pace != null && pace.resumed() ? EstimateCaveat.RESUMED : EstimateCaveat.MEASURING;
            central = rate;
            fast = rate;
            double floor = pace == null ? 0 : pace.floorPerSecond();
            slow = floor > 0 ? Math.min(floor, rate / 2) : rate / MEASURING_SPREAD;
            variance = rate;
        } else {
            double r = pace.perSecond();
            double recent = pace.recentPerSecond();
            variance = Math.max(pace.variance(), 0);
            double rateError = Math.sqrt(variance / (pace.buckets() * (double) Pace.BUCKET_SECONDS));
            double recentError = Math.sqrt(
                    variance / (Math.min(pace.buckets(), Pace.RECENT_BUCKETS) * (double) Pace.BUCKET_SECONDS));
            central = r;
            fast = r + Z * rateError;
            // the late end also heeds a recent pace a little below the long-run one: an offer later than promised is
            // worse news than an earlier one, and in the rehearsal the misses were late (docs/design/estimates.md)
            slow = Math.min(r, recent) - Z * rateError;
            // a recent pace beyond its own noise from the long-run pace is a change: it widens and says so
            if (recent < r * (1 - CHANGE) && recent < r - Z * recentError) {
                caveat = EstimateCaveat.SLOWED;
                central = (r + recent) / 2;
                // the near future is more like the recent pace than the long-run one: the fast end is the halfway
                // pace, not the long-run one (the rehearsal's SLOWED ranges held every wait, docs/design/estimates.md)
                fast = central + Z * rateError;
                slow = (recent - Z * rateError) / WIDEN;
            } else if (recent > r * (1 + CHANGE) && recent > r + Z * recentError) {
                caveat = EstimateCaveat.SPED_UP;
                central = (r + recent) / 2;
                fast = (recent + Z * rateError) * WIDEN;
            } else if (pace.resumed()) {
                caveat = EstimateCaveat.RESUMED;
                slow /= WIDEN;
                fast *= WIDEN;
            } else {
                caveat = null;
            }
            // never slower than a tenth of the long-run pace: a stall is a pause, which shows no estimate at all
            slow = Math.max(slow, r / 10);
        }
        double middle = (fewest + most) / 2 / central;
        double min = Math.min(earliest(fewest, fast, variance), middle * FLOOR_BELOW) - SLACK_SECONDS;
        double max = Math.max(latest(most, slow, variance), middle * FLOOR_ABOVE) + SLACK_SECONDS;
        long lo = (long) Math.max(0, Math.floor(Math.min(min, LONGEST)));
        long hi = Math.max(lo, (long) Math.ceil(Math.min(max, LONGEST)));
        // too wide to mean anything: "not known yet" rather than a range that holds any wait by construction
        if (!QueueStatus.EstimatedWait.meaningful(lo, hi)) {
            return null;
        }
        long shown = Math.max(lo, (long) Math.ceil(lo + SHOWN_SPREAD * (hi - lo)));
        return new QueueStatus.EstimatedWait(lo, shown, caveat);
    }

    /** The t where r t + z s √t reaches k: the fast pace's upper quantile makes k offers this early. */
    static double earliest(double k, double r, double variance) {
        double s = Math.sqrt(variance);
        double x = (-Z * s + Math.sqrt(Z * Z * variance + 4 * r * k)) / (2 * r);
        return x * x;
    }

    /** The t where r t - z s √t reaches k: the slow pace's lower quantile makes k offers this late. */
    static double latest(double k, double r, double variance) {
        double s = Math.sqrt(variance);
        double x = (Z * s + Math.sqrt(Z * Z * variance + 4 * r * k)) / (2 * r);
        return x * x;
    }
}
