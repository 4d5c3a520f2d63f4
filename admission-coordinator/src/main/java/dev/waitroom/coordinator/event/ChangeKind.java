package dev.waitroom.coordinator.event;

/** What an audited change ({@link ModeChange}) changed. */
public enum ChangeKind {
    PHASE,
    MODE,
    ANNOUNCEMENT,
    CONFIG,
    /** A region drained or resumed (docs/operating/regions.md). */
    REGION
}
