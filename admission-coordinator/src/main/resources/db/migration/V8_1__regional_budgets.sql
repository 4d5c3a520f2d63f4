-- Regional gates with bounded budgets (docs/operating/regions.md). A region is a gateway, a queue-service with its own Redis and
-- a coordinator started with waitroom.region.name; the empty name is the central gate, the only one a single-region
-- deployment has, and it behaves exactly as before.

-- One lease per event and region, each with its own fencing generation.
alter table leases add column region text not null default '';
alter table leases drop constraint leases_pkey;
alter table leases add primary key (event_id, region);

-- The region whose gate made the offer: its queue hears of the grant, its budget counts it.
alter table grants add column region text not null default '';
drop index grants_one_live_per_entry;
create unique index grants_one_live_per_entry on grants (event_id, region, entry_id) where state in ('OFFERED', 'ACTIVE');
create index grants_live_by_region on grants (event_id, region) where state in ('OFFERED', 'ACTIVE');
create index grants_unsynced_by_region on grants (event_id, region) where queue_synced_state is distinct from state;

-- The ledger of budgets: slots a region's gate may hold as live grants (OFFERED or ACTIVE). The invariant, kept by
-- every statement that grows a budget or offers, each after locking the event row:
--   central live grants + sum over regions of greatest(slots, that region's live grants) <= max_active_sessions
-- A region's own offers keep its live grants <= its slots, so the live grants of the whole event never exceed the
-- ceiling. expires_at is the region's lease expiry at its last renewal: past it (plus a grace) the budget is frozen,
-- and any other gate shrinks it to the region's live grants as they end.
create table region_budgets (
    event_id   text        not null references events (event_id),
    region     text        not null check (region <> '' and length(region) <= 32),
    slots      integer     not null check (slots >= 0),
    generation bigint      not null,
    owner      text        not null,
    expires_at timestamptz not null,
    waiting    bigint      not null default 0 check (waiting >= 0),
    draining   boolean     not null default false,
    updated_at timestamptz not null default now(),
    primary key (event_id, region)
);

alter table mode_changes drop constraint mode_changes_kind_check;
alter table mode_changes add constraint mode_changes_kind_check
    check (kind in ('PHASE', 'MODE', 'ANNOUNCEMENT', 'CONFIG', 'REGION'));
