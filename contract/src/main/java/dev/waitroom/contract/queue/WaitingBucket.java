package dev.waitroom.contract.queue;

/** {@code count} WAITING entries have order keys above the previous bucket's maximum and at most {@code maxOrderKey}. */
public record WaitingBucket(long maxOrderKey, long count) {}
