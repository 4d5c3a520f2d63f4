package dev.waitroom.contract.queue;

import java.util.List;

/**
 * The answer to {@code POST /internal/events/{eventId}/offers} ({@link QueuePaths#OFFERS}): one result per offered
 * entry. A missing list reads as empty.
 */
public record OfferResults(List<OfferResult> results) {

    public OfferResults {
        results = results == null ? List.of() : results;
    }
}
