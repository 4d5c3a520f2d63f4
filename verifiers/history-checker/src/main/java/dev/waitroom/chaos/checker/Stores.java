package dev.waitroom.chaos.checker;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;

/**
 * Where the checker reads the authorities: the coordinator's and booking's PostgreSQL databases, and each region's
 * Redis ({@code ""} names the only one of a single-region stack).
 */
public record Stores(
        String coordinatorJdbcUrl,
        String bookingJdbcUrl,
        String postgresUser,
        String postgresPassword,
        Map<String, RedisAddress> redis) {

    public record RedisAddress(String host, int port, String password) {
        @Override
        public String toString() {
            return host + ":" + port;
        }
    }

    @Override
    public String toString() {
        return "Stores[" + coordinatorJdbcUrl + ", " + bookingJdbcUrl + ", redis " + redis.keySet() + "]";
    }

    Connection coordinator() throws SQLException {
        return DriverManager.getConnection(coordinatorJdbcUrl, postgresUser, postgresPassword);
    }

    Connection booking() throws SQLException {
        return DriverManager.getConnection(bookingJdbcUrl, postgresUser, postgresPassword);
    }
}
