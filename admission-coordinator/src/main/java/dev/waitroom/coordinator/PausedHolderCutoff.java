package dev.waitroom.coordinator;

import dev.waitroom.coordinator.tick.CoordinatorProperties;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;

/**
 * Fencing stops a former leader's writes; this stops its locks. Every transaction of this instance starts with
 * {@code SET LOCAL idle_in_transaction_session_timeout} ({@code waitroom.coordinator.paused-transaction-timeout},
 * shorter than the lease). A coordinator paused inside a transaction (a SIGSTOP, a frozen VM, a long GC pause) still
 * holds the event row it locked to allocate, or the grants it was expiring; without this, the next leader's first
 * allocation waits on that lock for as long as the pause lasts, and so does its ticker for every other event. With
 * it, PostgreSQL ends the paused session and rolls its transaction back before the lease lapses, so the takeover
 * finds nothing locked. Transaction-local, so it holds behind PgBouncer in transaction mode too.
 */
@Configuration(proxyBeanMethods = false)
class PausedHolderCutoff {

    @Bean
    JdbcTransactionManager transactionManager(DataSource dataSource, CoordinatorProperties properties) {
        return new CutOffWhenIdle(
                dataSource, properties.pausedTransactionTimeout().toMillis());
    }

    private static final class CutOffWhenIdle extends JdbcTransactionManager {

        private final String setting;

        CutOffWhenIdle(DataSource dataSource, long timeoutMillis) {
            super(dataSource);
            this.setting = "set local idle_in_transaction_session_timeout = " + timeoutMillis;
        }

        @Override
        protected void prepareTransactionalConnection(Connection con, TransactionDefinition definition)
                throws SQLException {
            super.prepareTransactionalConnection(con, definition);
            try (Statement statement = con.createStatement()) {
                statement.execute(this.setting);
            }
        }
    }
}
