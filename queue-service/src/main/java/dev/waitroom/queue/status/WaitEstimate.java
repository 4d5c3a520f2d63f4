package dev.waitroom.queue.status;

/**
 * Seconds until an offer, as a range: the band ahead divided by the measured admission rate, widened to
 * x0.8 .. x1.5 because the rate moves.
 */
public record WaitEstimate(long min, long max) {

    /** The estimate, or null when the rate is unknown or zero (paused): no made-up numbers. */
    public static WaitEstimate of(PositionBand ahead, double admissionRatePerSecond) {
        if (!(admissionRatePerSecond > 0) || Double.isInfinite(admissionRatePerSecond)) {
            return null;
        }
        long min = (long) Math.floor(ahead.aheadMin() / admissionRatePerSecond * 0.8);
        long max = (long) Math.ceil((ahead.aheadMax() + 1) / admissionRatePerSecond * 1.5);
        return new WaitEstimate(min, Math.max(min, max));
    }
}
