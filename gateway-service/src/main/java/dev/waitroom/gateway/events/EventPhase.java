package dev.waitroom.gateway.events;

/** Sale phase of an event (DESIGN §2): {@code SCHEDULED -> OPEN -> ENDED}; the gateway only reads it. */
public enum EventPhase {

	SCHEDULED, OPEN, ENDED

}
