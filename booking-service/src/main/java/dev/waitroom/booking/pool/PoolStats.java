package dev.waitroom.booking.pool;

/** Database pool pressure: connections in use, callers waiting, and the effective maximum. */
public record PoolStats(int active, int pending, int max) {}
