package dev.waitroom.contract.queue;

import java.util.List;

/**
 * Body of {@code POST /internal/events/{eventId}/offers} ({@link QueuePaths#OFFERS}). The queue-service checks the
 * batch itself (1..its batch limit items, each entry once).
 */
public record OfferBatch(List<Offer> offers) {
}
