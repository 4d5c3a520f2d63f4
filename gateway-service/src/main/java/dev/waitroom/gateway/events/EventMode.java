package dev.waitroom.gateway.events;

/**
 * Operating mode of an event (docs/ARCHITECTURE.md#event-phase-and-mode); the gateway only reads it from the snapshot.
 */
public enum EventMode {

	QUEUEING, PAUSED, SOLD_OUT, BYPASS

}
