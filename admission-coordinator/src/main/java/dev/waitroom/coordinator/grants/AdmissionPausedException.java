package dev.waitroom.coordinator.grants;

import dev.waitroom.contract.ProblemType;
import dev.waitroom.coordinator.problems.CoordinatorException;
import java.time.Duration;

/**
 * A claim while the event is PAUSED (503 {@code admission-paused}): the offer is held, its deadline moves on by the
 * pause when the event resumes (docs/design/sale-rules/sold-out-pause-rounds.md). Answered with {@code Retry-After}.
 */
public class AdmissionPausedException extends CoordinatorException {

    private static final long serialVersionUID = 1L;

    /** How long a paused claim is told to wait before trying again. */
    public static final Duration RETRY_AFTER = Duration.ofSeconds(10);

    AdmissionPausedException() {
        super(
                ProblemType.ADMISSION_PAUSED,
                "Admission is paused. Your offer is held: its deadline moves on by the length of the pause, "
                        + "so try again when admission resumes.");
    }

    public Duration retryAfter() {
        return RETRY_AFTER;
    }
}
