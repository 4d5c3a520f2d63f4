package dev.waitroom.contract.queue;

import java.util.List;

/**
 * The answer to a {@link LivenessBatch}: the entries that are no longer WAITING for the visitor named (left, offered,
 * gone). A missing list reads as empty.
 */
public record LivenessResult(List<String> notWaiting) {

    public LivenessResult {
        notWaiting = notWaiting == null ? List.of() : notWaiting;
    }
}
