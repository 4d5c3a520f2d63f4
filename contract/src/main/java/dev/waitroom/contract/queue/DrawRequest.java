package dev.waitroom.contract.queue;

/**
 * Body of {@code POST /internal/events/{eventId}/draw} ({@link QueuePaths#DRAW}): the seed, hex. A String the
 * queue-service checks itself (hex of 16..128 bytes; the one its commitment names, else a seed-mismatch problem).
 */
public record DrawRequest(String seed) {}
