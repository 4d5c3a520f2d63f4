package dev.waitroom.contract.queue;

/**
 * The answer to {@code POST /internal/events/{eventId}/draw} ({@link QueuePaths#DRAW}): how many pre-sale entries the
 * draw ordered; a repeat answers the same.
 */
public record DrawResult(long presaleCount, boolean completed) {}
