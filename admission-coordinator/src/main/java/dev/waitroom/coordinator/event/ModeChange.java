package dev.waitroom.coordinator.event;

import java.time.Instant;

/** One audited phase, mode, announcement or config change: who, when, why. */
public record ModeChange(ChangeKind kind, String from, String to, String actor, String reason, Instant at) {}
