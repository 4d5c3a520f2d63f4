-- Events: configuration (DESIGN §8), sale phase, operating mode, sale generation and the draw seed.
create table events (
    event_id                  text primary key,
    name                      text        not null,
    opens_at                  timestamptz,
    max_active_sessions       integer     not null check (max_active_sessions > 0),
    max_admissions_per_second double precision not null check (max_admissions_per_second > 0),
    batch_max                 integer     not null check (batch_max > 0),
    offer_ttl_seconds         integer     not null check (offer_ttl_seconds > 0),
    session_ttl_seconds       integer     not null check (session_ttl_seconds > 0),
    session_max_seconds       integer     not null check (session_max_seconds >= session_ttl_seconds),
    presale_ordering          text        not null check (presale_ordering in ('RANDOM', 'FIFO')),
    identity_scope            text        not null check (identity_scope in ('BROWSER', 'ACCOUNT')),
    expired_offer_policy      text        not null check (expired_offer_policy in ('REQUEUE_ONCE', 'DROP')),
    after_purchase            text        not null check (after_purchase in ('RELEASE', 'KEEP')),
    phase                     text        not null check (phase in ('SCHEDULED', 'OPEN', 'ENDED')),
    mode                      text        not null check (mode in ('QUEUEING', 'PAUSED', 'SOLD_OUT', 'BYPASS')),
    sale_generation           bigint      not null default 1,
    seed                      text        not null,
    commitment                text        not null,
    seed_revealed_at          timestamptz,
    announcement              text        not null default '',
    created_at                timestamptz not null default now(),
    updated_at                timestamptz not null default now()
);

-- One lease per event. Acquiring it (from an expired lease or another owner) increments the fencing generation.
create table leases (
    event_id   text        primary key references events (event_id),
    owner      text        not null,
    generation bigint      not null,
    expires_at timestamptz not null
);

-- One row per offer: the offer and the shopping-session lifecycle (DESIGN §2).
create table grants (
    id                  uuid        primary key,
    event_id            text        not null references events (event_id),
    visitor             text        not null,
    entry_id            text        not null,
    order_key           bigint      not null,
    generation          bigint      not null,
    state               text        not null check (state in ('OFFERED', 'ACTIVE', 'OFFER_EXPIRED', 'EXPIRED', 'RELEASED', 'COMPLETED')),
    offered_at          timestamptz not null,
    offer_expires_at    timestamptz not null,
    session_id          uuid        unique,
    activated_at        timestamptz,
    session_expires_at  timestamptz,
    absolute_expires_at timestamptz,
    order_id            text,
    purchased_at        timestamptz,
    released_at         timestamptz,
    release_reason      text        check (release_reason in ('OFFER_EXPIRED', 'SESSION_EXPIRED', 'LEFT', 'PURCHASED')),
    -- Outbox for the queue service: the grant state the queue has acknowledged (null = nothing yet).
    queue_synced_state  text
);

-- At most one live grant per visitor and per queue entry in an event.
create unique index grants_one_live_per_visitor on grants (event_id, visitor) where state in ('OFFERED', 'ACTIVE');
create unique index grants_one_live_per_entry on grants (event_id, entry_id) where state in ('OFFERED', 'ACTIVE');
create index grants_live_by_event on grants (event_id, state) where state in ('OFFERED', 'ACTIVE');
create index grants_unsynced on grants (event_id) where queue_synced_state is distinct from state;
create index grants_by_visitor on grants (event_id, visitor, offered_at desc);

-- Audit of every phase and mode change: who, when, why.
create table mode_changes (
    id         bigserial   primary key,
    event_id   text        not null references events (event_id),
    kind       text        not null check (kind in ('PHASE', 'MODE', 'ANNOUNCEMENT', 'CONFIG')),
    from_value text,
    to_value   text,
    actor      text        not null,
    reason     text        not null,
    at         timestamptz not null default now()
);
create index mode_changes_by_event on mode_changes (event_id, at);

-- The Ed25519 key ring (private JSON from shared-tokens); one row, optimistic version.
create table signing_keys (
    id         integer     primary key check (id = 1),
    ring_json  text        not null,
    version    bigint      not null,
    updated_at timestamptz not null default now()
);
