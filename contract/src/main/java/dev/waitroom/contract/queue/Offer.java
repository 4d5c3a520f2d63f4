package dev.waitroom.contract.queue;

import java.time.Instant;

/**
 * One item of {@link OfferBatch}: offer this entry under this grant until {@code expiresAt}. {@code grantId} is a
 * String the queue-service checks itself (1..64 letters, digits, '-' or '_'; the coordinator sends a UUID).
 */
public record Offer(String entryId, String grantId, Instant expiresAt) {}
