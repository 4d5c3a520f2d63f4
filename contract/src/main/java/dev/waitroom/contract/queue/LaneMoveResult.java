package dev.waitroom.contract.queue;

/**
 * The answer to a {@link LaneMove}: the entry's receipt, its state and the lane it stands in afterwards;
 * {@code moved} is false when it stood there already (a repeat changes nothing).
 */
public record LaneMoveResult(String entryId, String state, String lane, boolean moved) {}
