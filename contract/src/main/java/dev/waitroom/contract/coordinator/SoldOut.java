package dev.waitroom.contract.coordinator;

/**
 * Body of {@code POST /internal/events/{eventId}/sold-out} ({@link CoordinatorPaths#SOLD_OUT}): why booking has no
 * seat left. Optional: a missing or blank reason reads as {@value #DEFAULT_REASON}; a longer one than
 * {@value #MAX_REASON} characters is cut.
 */
public record SoldOut(String reason) {

    public static final String DEFAULT_REASON = "sold out";

    public static final int MAX_REASON = 500;

    /** The reason to record: {@link #DEFAULT_REASON} when missing or blank, at most {@link #MAX_REASON} characters. */
    public String reasonOrDefault() {
        String text = reason == null || reason.isBlank() ? DEFAULT_REASON : reason;
        return text.length() > MAX_REASON ? text.substring(0, MAX_REASON) : text;
    }
}
