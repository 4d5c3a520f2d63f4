package dev.waitroom.booking.faults;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

/** Reads pool pressure from Hikari's MXBean and the fault gate in front of it. */
public final class DatabasePool {

    private final HikariDataSource hikari;
    private final ConnectionGate gate;

    DatabasePool(HikariDataSource hikari, ConnectionGate gate) {
        this.hikari = hikari;
        this.gate = gate;
    }

    public PoolStats stats() {
        ConnectionGate.Snapshot gated = gate.snapshot();
        HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
        int hikariMax = hikari.getMaximumPoolSize();
        int max = gated.limit() > 0 ? Math.min(gated.limit(), hikariMax) : hikariMax;
        int active = pool == null ? gated.inUse() : Math.max(pool.getActiveConnections(), 0);
        int hikariWaiting = pool == null ? 0 : Math.max(pool.getThreadsAwaitingConnection(), 0);
        return new PoolStats(active, gated.waiting() + hikariWaiting, max);
    }
}
