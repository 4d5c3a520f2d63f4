package dev.waitroom.contract.queue;

import java.util.List;

/** The answer to a {@link JoinBatch}: one result per join, in the batch's order. A missing list reads as empty. */
public record JoinResults(List<JoinResult> results) {

    public JoinResults {
        results = results == null ? List.of() : results;
    }
}
