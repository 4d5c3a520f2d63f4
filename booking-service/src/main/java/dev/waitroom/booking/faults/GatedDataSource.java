package dev.waitroom.booking.faults;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DelegatingDataSource;

/** The application's DataSource: every connection passes the {@link ConnectionGate} and frees it on close. */
final class GatedDataSource extends DelegatingDataSource {

    private final ConnectionGate gate;

    GatedDataSource(DataSource pool, ConnectionGate gate) {
        super(pool);
        this.gate = gate;
    }

    ConnectionGate gate() {
        return gate;
    }

    @Override
    public Connection getConnection() throws SQLException {
        gate.acquire();
        try {
            return gated(obtainTargetDataSource().getConnection());
        } catch (SQLException | RuntimeException e) {
            gate.release();
            throw e;
        }
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        gate.acquire();
        try {
            return gated(obtainTargetDataSource().getConnection(username, password));
        } catch (SQLException | RuntimeException e) {
            gate.release();
            throw e;
        }
    }

    private Connection gated(Connection connection) {
        AtomicBoolean open = new AtomicBoolean(true);
        return (Connection) Proxy.newProxyInstance(
                GatedDataSource.class.getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    if ("close".equals(method.getName()) && method.getParameterCount() == 0) {
                        try {
                            connection.close();
                        } finally {
                            if (open.compareAndSet(true, false)) {
                                gate.release();
                            }
                        }
                        return null;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getTargetException();
                    }
                });
    }
}
