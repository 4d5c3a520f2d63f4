package dev.waitroom.contract.queue;

/**
 * Why a wait estimate is wider than usual (docs/design/estimates.md); the status body's {@code estimatedWaitSeconds.caveat},
 * null when the pace is steady. The page says it in words.
 */
public enum EstimateCaveat {
    /** Too little pace measured yet (the sale just opened): the range comes from the configured rate and is wide. */
    MEASURING,
    /** The recent pace is well below the longer-run pace: the range covers both and is wider until it settles. */
    SLOWED,
    /** The recent pace is well above the longer-run pace. */
    SPED_UP,
    /** Admissions resumed after a pause a short while ago: wider until the pace is measured again. */
    RESUMED
}
