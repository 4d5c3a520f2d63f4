-- The event lifecycle for operators (docs/operating/event-lifecycle.md), apart from the sale's phase and mode:
-- DRAFT (created with "draft": true: takes no joins, is never pushed to the queue, protects nothing in the route
-- table, and its rules and protected paths may change), PUBLISHED (live: what every event was before; rules frozen)
-- and ARCHIVED (hidden from the default list, records kept, no routes, its queue keys dropped). Every existing event
-- is live, published when it was created.
-- published_at: when it went live (a row written without a lifecycle is live from its insert); null for a draft and
-- for an event archived as a draft. archived_at: when it was archived.
alter table events
    add column lifecycle text not null default 'PUBLISHED' check (lifecycle in ('DRAFT', 'PUBLISHED', 'ARCHIVED')),
    add column published_at timestamptz default now(),
    add column archived_at timestamptz;
update events set published_at = created_at;

-- The list's keyset (event id order) within each lifecycle.
create index events_by_lifecycle on events (lifecycle, event_id);

-- A deleted event leaves no row behind but this one: who deleted it, when and why, kept after the id is free again.
create table deleted_events (
    id         bigserial   primary key,
    event_id   text        not null,
    name       text        not null,
    lifecycle  text        not null,
    actor      text        not null,
    reason     text        not null,
    at         timestamptz not null default now()
);
create index deleted_events_by_event on deleted_events (event_id, at);
