package dev.waitroom.queue.join;

/**
 * One join of a batch: the outcome it converged on, or the refusal that join alone would have had (the problem it
 * answers with: ended, sold out, throttled, unknown event).
 */
public record BatchJoin(JoinOutcome outcome, RuntimeException refused) {}
