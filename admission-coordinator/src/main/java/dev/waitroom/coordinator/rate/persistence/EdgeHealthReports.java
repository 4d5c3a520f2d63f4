package dev.waitroom.coordinator.rate.persistence;

import dev.waitroom.contract.coordinator.EdgeHealthReport;
import java.sql.Timestamp;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** The gateways' edge health reports shared by every coordinator instance through PostgreSQL, a row per window. */
@Component
public class EdgeHealthReports {

    private final JdbcClient jdbc;

    /** Which process received a report, so an instance does not record its own reports twice. */
    private final String self = UUID.randomUUID().toString();

    EdgeHealthReports(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public void append(EdgeHealthReport report) {
        UUID id = UUID.randomUUID();
        List<EdgeHealthReport.Window> windows = report.windows();
        if (windows.isEmpty()) {
            insert(id, report, null);
            return;
        }
        for (EdgeHealthReport.Window window : windows) {
            insert(id, report, window);
        }
    }

    private void insert(UUID id, EdgeHealthReport report, EdgeHealthReport.Window w) {
        this.jdbc
                .sql("""
                insert into edge_health_reports (report, received_by, gateway, at, window_seconds, event_id, origin,
                    requests, server_errors, timeouts, connection_errors, latency_p95_ms, latency_p99_ms)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(
                        id,
                        this.self,
                        report.gateway(),
                        Timestamp.from(report.at()),
                        report.windowSeconds(),
                        w == null ? null : w.eventId(),
                        w == null ? null : w.origin(),
                        w == null ? 0 : w.requests(),
                        w == null ? 0 : w.serverErrors(),
                        w == null ? 0 : w.timeouts(),
                        w == null ? 0 : w.connectionErrors(),
                        w == null ? 0 : w.latencyP95Ms(),
                        w == null ? 0 : w.latencyP99Ms())
                .update();
    }

    /**
     * Reports another instance received whose rows come after {@code afterId}, oldest first, each whole (a report's
     * rows are inserted together; the last one read may be cut by the limit, and is then read again whole).
     */
    List<Report> receivedElsewhereAfter(long afterId) {
        List<Row> rows = this.jdbc
                .sql("""
                select id, report, gateway, at, window_seconds, event_id, origin, requests, server_errors, timeouts,
                       connection_errors, latency_p95_ms, latency_p99_ms
                from edge_health_reports where id > ? and received_by <> ? order by id limit 1000""")
                .params(afterId, this.self)
                .query((rs, n) -> new Row(
                        rs.getLong(1),
                        rs.getObject(2, UUID.class),
                        rs.getString(3),
                        rs.getTimestamp(4).toInstant(),
                        rs.getInt(5),
                        rs.getString(6) == null
                                ? null
                                : new EdgeHealthReport.Window(
                                        rs.getString(6),
                                        rs.getString(7),
                                        rs.getLong(8),
                                        rs.getLong(9),
                                        rs.getLong(10),
                                        rs.getLong(11),
                                        rs.getDouble(12),
                                        rs.getDouble(13))))
                .list();
        List<Report> reports = new ArrayList<>();
        int from = 0;
        for (int i = 1; i <= rows.size(); i++) {
            if (i == rows.size() || !rows.get(i).report().equals(rows.get(from).report())) {
                if (i == rows.size() && rows.size() == 1000 && from > 0) {
                    break; // possibly cut: read again next time
                }
                Row first = rows.get(from);
                List<EdgeHealthReport.Window> windows = new ArrayList<>();
                for (Row r : rows.subList(from, i)) {
                    if (r.window() != null) {
                        windows.add(r.window());
                    }
                }
                reports.add(new Report(
                        rows.get(i - 1).id(),
                        new EdgeHealthReport(first.gateway(), first.at(), first.windowSeconds(), windows)));
                from = i;
            }
        }
        return reports;
    }

    long latestId() {
        return this.jdbc
                .sql("select coalesce(max(id), 0) from edge_health_reports")
                .query(Long.class)
                .single();
    }

    int pruneOlderThan(Duration age) {
        return this.jdbc
                .sql("delete from edge_health_reports where received_at < clock_timestamp() - make_interval(secs => ?)")
                .param(age.toSeconds())
                .update();
    }

    private record Row(
            long id,
            UUID report,
            String gateway,
            java.time.Instant at,
            int windowSeconds,
            EdgeHealthReport.Window window) {}

    record Report(long id, EdgeHealthReport report) {}
}
