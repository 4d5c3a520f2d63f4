package dev.waitroom.coordinator.rate.persistence;

import dev.waitroom.coordinator.rate.HealthSample;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.List;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Booking health reports shared by every coordinator instance through PostgreSQL. */
@Component
public class HealthReports {

    private final JdbcClient jdbc;

    /** Which process received a report, so an instance does not record its own reports twice. */
    private final String self = java.util.UUID.randomUUID().toString();

    HealthReports(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void append(HealthSample s) {
        this.jdbc
                .sql("""
                insert into health_reports (received_by, at, window_seconds, requests, latency_p95_ms, latency_p99_ms,
                    error_rate, pool_active, pool_pending, pool_max, hold_failure_rate)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        this.self,
                        Timestamp.from(s.at()),
                        s.windowSeconds(),
                        s.requests(),
                        s.latencyP95Ms(),
                        s.latencyP99Ms(),
                        s.errorRate(),
                        s.poolActive(),
                        s.poolPending(),
                        s.poolMax(),
                        s.holdFailureRate())
                .update();
    }

    /** Reports after {@code afterId} that another instance received, oldest first. */
    List<Report> receivedElsewhereAfter(long afterId) {
        return this.jdbc
                .sql("""
                select id, at, window_seconds, requests, latency_p95_ms, latency_p99_ms, error_rate, pool_active,
                       pool_pending, pool_max, hold_failure_rate
                from health_reports where id > ? and received_by <> ? order by id limit 200""")
                .params(afterId, this.self)
                .query((rs, n) -> new Report(
                        rs.getLong(1),
                        new HealthSample(
                                rs.getTimestamp(2).toInstant(),
                                rs.getInt(3),
                                rs.getLong(4),
                                rs.getDouble(5),
                                rs.getDouble(6),
                                rs.getDouble(7),
                                rs.getInt(8),
                                rs.getInt(9),
                                rs.getInt(10),
                                rs.getDouble(11))))
                .list();
    }

    long latestId() {
        return this.jdbc
                .sql("select coalesce(max(id), 0) from health_reports")
                .query(Long.class)
                .single();
    }

    int pruneOlderThan(Duration age) {
        return this.jdbc
                .sql("delete from health_reports where received_at < clock_timestamp() - make_interval(secs => ?)")
                .param(age.toSeconds())
                .update();
    }

    record Report(long id, HealthSample sample) {}
}
