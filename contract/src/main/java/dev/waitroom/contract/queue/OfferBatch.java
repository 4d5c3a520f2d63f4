package dev.waitroom.contract.queue;

import java.util.List;

/**
 * Body of {@code POST /internal/events/{eventId}/offers} ({@link QueuePaths#OFFERS}). The queue-service checks the
 * batch itself (1..its batch limit items, each entry once).
 */
public record OfferBatch(List<Offer> offers) {

    /**
     * The most offers (and candidates) one call carries: the queue-service's default limit per call. A client with
     * more sends them in several calls.
     */
    public static final int MAX_OFFERS = 1000;
}
