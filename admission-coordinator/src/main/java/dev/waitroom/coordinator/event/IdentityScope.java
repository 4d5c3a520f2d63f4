package dev.waitroom.coordinator.event;

/** What makes a join unique. */
public enum IdentityScope {
	BROWSER, ACCOUNT
}
