package dev.waitroom.booking.pool;

/** The database connection pool's pressure, as the health report gives it to the coordinator. */
public interface DatabasePool {

    PoolStats stats();
}
