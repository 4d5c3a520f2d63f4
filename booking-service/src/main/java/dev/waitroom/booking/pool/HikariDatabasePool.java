package dev.waitroom.booking.pool;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.springframework.stereotype.Component;

/** Reads pool pressure from Hikari's MXBean (through any DataSource wrapped around the pool). */
@Component
public final class HikariDatabasePool implements DatabasePool {

    private final HikariDataSource hikari;

    HikariDatabasePool(DataSource dataSource) throws SQLException {
        this.hikari = dataSource.unwrap(HikariDataSource.class);
    }

    @Override
    public PoolStats stats() {
        HikariPoolMXBean pool = hikari.getHikariPoolMXBean();
        int active = pool == null ? 0 : Math.max(pool.getActiveConnections(), 0);
        int waiting = pool == null ? 0 : Math.max(pool.getThreadsAwaitingConnection(), 0);
        return new PoolStats(active, waiting, hikari.getMaximumPoolSize());
    }
}
