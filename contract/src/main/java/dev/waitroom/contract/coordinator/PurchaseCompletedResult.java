package dev.waitroom.contract.coordinator;

import java.util.UUID;

/** The answer to {@link PurchaseCompleted}: the session and its grant state now (a grant state name). */
public record PurchaseCompletedResult(UUID sessionId, String state) {}
