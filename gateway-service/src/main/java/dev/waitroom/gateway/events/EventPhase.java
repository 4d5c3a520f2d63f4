package dev.waitroom.gateway.events;

/**
 * Sale phase of an event (docs/ARCHITECTURE.md#event-phase-and-mode): {@code SCHEDULED -> OPEN -> ENDED}; the gateway
 * only reads it.
 */
public enum EventPhase {

	SCHEDULED, OPEN, ENDED

}
