package dev.waitroom.coordinator.problems;

/** What kind of failure a problem is; the web layer maps it to an HTTP status. */
public enum ProblemKind {
	INVALID, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, CONFLICT, GONE, UNAVAILABLE
}
