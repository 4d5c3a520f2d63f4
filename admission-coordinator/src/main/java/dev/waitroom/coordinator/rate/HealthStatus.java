package dev.waitroom.coordinator.rate;

/** How the controller judges booking health. */
public enum HealthStatus {
    HEALTHY,
    STRAINED,
    DEGRADED,
    CRITICAL,
    STALE
}
