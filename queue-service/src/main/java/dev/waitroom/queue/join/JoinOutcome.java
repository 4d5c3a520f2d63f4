package dev.waitroom.queue.join;

/** The entry a join converged on, whether this join created it, and its status read in the same atomic step. */
public record JoinOutcome(boolean created, VisitorStatus status) {}
