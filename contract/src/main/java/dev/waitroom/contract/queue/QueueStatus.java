package dev.waitroom.contract.queue;

import dev.waitroom.contract.EventPhase;
import dev.waitroom.contract.LaneName;
import dev.waitroom.contract.OperatingMode;
import java.time.Instant;

/**
 * The visitor status, {@code GET /events/{eventId}/queue/status} (docs/design/architecture.md#the-status-body): answered by
 * the queue-service and, for a WAITING entry whose order the snapshot covers, by the gateway at the edge; both must
 * read alike. Nothing about other visitors, no internal ids but the visitor's own receipt. {@code state} is an entry
 * state name; {@code position} and {@code estimatedWaitSeconds} are null when unknown; {@code offer} is set for an
 * OFFERED entry only. {@code admissionHold} says why offers are held back while the event is open (the shop's health
 * or a planned window; {@link AdmissionHold}), null when they are not; {@code lane} is the lane the visitor stands in
 * ({@code general} without a redeemed access code, docs/operating/lanes-and-access-codes.md), and the position band
 * counts that lane's visitors only.
 */
public record QueueStatus(
        String state,
        EventPhase phase,
        OperatingMode mode,
        Position position,
        EstimatedWait estimatedWaitSeconds,
        Offer offer,
        int pollAfterSeconds,
        String announcement,
        String receipt,
        AdmissionHold admissionHold,
        String lane) {

    /** A status that names no lane (an older queue-service's, or a fixture's) stands in the general lane. */
    public QueueStatus {
        if (lane == null) {
            lane = LaneName.GENERAL.value();
        }
    }

    /**
     * How many waiting visitors are ahead: a band, never an exact count. Exact below 100, otherwise rounded to two
     * significant digits, always containing the truth: 12,345 ahead reads as 12,000..12,999.
     */
    public record Position(long aheadMin, long aheadMax) {

        public Position {
            if (aheadMin < 0 || aheadMax < aheadMin) {
                throw new IllegalArgumentException("position band must satisfy 0 <= aheadMin <= aheadMax");
            }
        }

        /** The band around an exact count. */
        public static Position around(long exact) {
            return covering(exact, exact);
        }

        /** The coarsest band of the rule that contains {@code aheadMin..aheadMax}. */
        public static Position covering(long aheadMin, long aheadMax) {
            return new Position(
                    aheadMin - aheadMin % granularity(aheadMin),
                    aheadMax - aheadMax % granularity(aheadMax) + granularity(aheadMax) - 1);
        }

        private static long granularity(long value) {
            long granularity = 1;
            for (long v = value; v >= 100; v /= 10) {
                granularity *= 10;
            }
            return granularity;
        }
    }

    /**
     * Seconds until an offer is expected: a 90 % range from the measured offer pace (docs/design/estimates.md), with the
     * reason it is wider than usual, null when the pace is steady. Never wider than {@link #meaningful} allows.
     */
    public record EstimatedWait(long min, long max, EstimateCaveat caveat) {

        public EstimatedWait {
            if (min < 0 || max < min) {
                throw new IllegalArgumentException("estimate must satisfy 0 <= min <= max");
            }
        }

        /** A range's upper end is at most this many times its lower end ... */
        public static final long MOST_TIMES_THE_LOWER_END = 4;

        /** ... plus this many seconds; a wider range says nothing and is not shown (docs/design/estimates.md). */
        public static final long MOST_SECONDS_BEYOND = 120;

        /**
         * Whether {@code min..max} is narrow enough to mean something: {@code max <= 4 min + 2 minutes}. Beyond that the
         * status says "not known yet" (a null estimate): a range that wide holds the real wait by construction.
         */
        public static boolean meaningful(long min, long max) {
            return max <= MOST_TIMES_THE_LOWER_END * min + MOST_SECONDS_BEYOND;
        }

        /**
         * The range for the band ahead at the measured pace ({@link WaitBand}), or, with no pace measured yet, from
         * the pushed rate and wide ({@link EstimateCaveat#MEASURING}); null when the rate is zero or unknown (paused)
         * or when the range would be too wide to mean anything ({@link #meaningful}): no made-up numbers. The
         * queue-service and the edge both answer with this.
         */
        public static EstimatedWait of(Position ahead, double admissionRatePerSecond, Pace pace) {
            return WaitBand.of(ahead, admissionRatePerSecond, pace);
        }

        /** {@link #of(Position, double, Pace)} with no pace measured. */
        public static EstimatedWait of(Position ahead, double admissionRatePerSecond) {
            return of(ahead, admissionRatePerSecond, null);
        }
    }

    /** The offer an OFFERED entry holds: claim it before {@code expiresAt}. */
    public record Offer(Instant expiresAt) {}
}
