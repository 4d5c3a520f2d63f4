package dev.waitroom.booking.faults;

import dev.waitroom.booking.pool.DatabasePool;
import dev.waitroom.booking.pool.PoolStats;

/** Hikari's pool pressure seen through the fault gate: a limited pool reports its limit and its waiters. */
final class GatedDatabasePool implements DatabasePool {

    private final DatabasePool hikari;
    private final ConnectionGate gate;

    GatedDatabasePool(DatabasePool hikari, ConnectionGate gate) {
        this.hikari = hikari;
        this.gate = gate;
    }

    @Override
    public PoolStats stats() {
        PoolStats pool = hikari.stats();
        ConnectionGate.Snapshot gated = gate.snapshot();
        int max = gated.limit() > 0 ? Math.min(gated.limit(), pool.max()) : pool.max();
        return new PoolStats(pool.active(), gated.waiting() + pool.pending(), max);
    }
}
