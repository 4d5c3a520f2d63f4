package dev.waitroom.gateway.events;

/** Operating mode of an event (DESIGN §2); the gateway only reads it from the snapshot. */
public enum EventMode {

	QUEUEING, PAUSED, SOLD_OUT, BYPASS

}
