-- An event's schedule (docs/operating/schedules-and-pauses.md): its closing time and planned windows, replaced as a
-- whole by PUT /admin/events/{id}/schedule; and the audit of the schedule: who set it and why, and each window's
-- start and end and the closing as the ticker applied them, once each (the unique index).
create table event_schedules (
    event_id   text        primary key references events (event_id) on delete cascade,
    closes_at  timestamptz,
    updated_at timestamptz not null default now()
);

create table schedule_windows (
    event_id  text        not null references events (event_id) on delete cascade,
    starts_at timestamptz not null,
    ends_at   timestamptz not null,
    kind      text        not null check (kind in ('QUEUE_ALL', 'PAUSE', 'OPEN')),
    reason    text        not null,
    primary key (event_id, starts_at),
    check (ends_at > starts_at)
);

create table schedule_changes (
    id               bigserial   primary key,
    event_id         text        not null references events (event_id) on delete cascade,
    change           text        not null check (change in ('SET', 'STARTED', 'ENDED', 'CLOSED')),
    window_kind      text,
    window_starts_at timestamptz,
    actor            text        not null,
    reason           text        not null,
    at               timestamptz not null default now()
);
create index schedule_changes_by_event on schedule_changes (event_id, id);
create unique index schedule_changes_applied_once on schedule_changes
    (event_id, change, coalesce(window_starts_at, 'epoch'::timestamptz)) where change <> 'SET';
