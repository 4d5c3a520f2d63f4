package dev.waitroom.contract.queue;

/**
 * The body of {@code POST /internal/events/{eventId}/lane} ({@link QueuePaths#LANE}): the visitor (and, signed in, the account the gateway vouched for) whose entry a
 * redeemed access code places in {@code lane} (docs/operating/lanes-and-access-codes.md). The entry keeps its order
 * key: within the lane it stands by its original join order.
 */
public record LaneMove(String visitor, String account, String lane) {}
