package dev.waitroom.coordinator.event;

/** How the pre-sale group is ordered at opening. */
public enum PresaleOrdering {
	RANDOM, FIFO
}
