-- Each gateway reports what it measured of the shop origins every second to whichever coordinator instance its URL
-- reaches; the instance leading an event must see every gateway's windows, or it would judge the event on a part of
-- its traffic (or pause it as stale). One row per window; a report without a window is one row with no event, which
-- still says the edge is there. Kept briefly and fed to each instance's rate controllers, like health_reports.
create table edge_health_reports (
    id                bigserial        primary key,
    report            uuid             not null,
    received_by       text             not null,
    gateway           text             not null,
    at                timestamptz      not null,
    window_seconds    integer          not null,
    event_id          text,
    origin            text,
    requests          bigint           not null,
    server_errors     bigint           not null,
    timeouts          bigint           not null,
    connection_errors bigint           not null,
    latency_p95_ms    double precision not null,
    latency_p99_ms    double precision not null,
    received_at       timestamptz      not null default clock_timestamp()
);
create index edge_health_reports_received_at on edge_health_reports (received_at);
