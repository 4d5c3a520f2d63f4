package dev.waitroom.contract.coordinator;

import dev.waitroom.contract.OperatingMode;

/** The answer to {@link SoldOut}: the event and its mode now (SOLD_OUT). */
public record SoldOutResult(String eventId, OperatingMode mode) {}
