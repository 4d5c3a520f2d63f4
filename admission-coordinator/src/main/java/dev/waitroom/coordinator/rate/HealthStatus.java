package dev.waitroom.coordinator.rate;

/**
 * How the controller judges a source of health (a shop's own reports, the edge's measurements) or an event's health
 * as a whole: the worse of its fresh sources. UNMEASURED: no source has said anything yet (an event without traffic
 * and a shop that reports nothing), which admits at the starting factor.
 */
public enum HealthStatus {
    HEALTHY,
    STRAINED,
    DEGRADED,
    CRITICAL,
    STALE,
    UNMEASURED;

    /** How bad, for "the worse of two": UNMEASURED and STALE say nothing and rank below HEALTHY. */
    int severity() {
        return switch (this) {
            case UNMEASURED, STALE -> 0;
            case HEALTHY -> 1;
            case STRAINED -> 2;
            case DEGRADED -> 3;
            case CRITICAL -> 4;
        };
    }

    static HealthStatus worse(HealthStatus a, HealthStatus b) {
        return b.severity() > a.severity() ? b : a;
    }
}
