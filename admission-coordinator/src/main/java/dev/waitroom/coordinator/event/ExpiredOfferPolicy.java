package dev.waitroom.coordinator.event;

/** What happens to an offer not claimed before its deadline (default REQUEUE_ONCE). */
public enum ExpiredOfferPolicy {
	REQUEUE_ONCE, DROP
}
