-- Booking reports its health to whichever coordinator instance its URL reaches; every instance must see every
-- report, or the instance leading an event would find health stale and pause admission. Reports are kept
-- briefly here and fed to each instance's rate controller.
create table health_reports (
    id                bigserial        primary key,
    received_by       text             not null,
    at                timestamptz      not null,
    window_seconds    integer          not null,
    requests          bigint           not null,
    latency_p95_ms    double precision not null,
    latency_p99_ms    double precision not null,
    error_rate        double precision not null,
    pool_active       integer          not null,
    pool_pending      integer          not null,
    pool_max          integer          not null,
    hold_failure_rate double precision not null,
    received_at       timestamptz      not null default clock_timestamp()
);
create index health_reports_received_at on health_reports (received_at);
