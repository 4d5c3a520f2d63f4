package dev.waitroom.coordinator.queue;

/** Targets of the queue's entry transition call. OFFER_EXPIRED applies the event's expired-offer policy. */
public enum QueueTransition {
	ACTIVE, COMPLETED, EXPIRED, OFFER_EXPIRED
}
