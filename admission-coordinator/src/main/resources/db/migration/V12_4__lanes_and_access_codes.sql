-- Lanes and access codes (issue 30, item 4; docs/operating/lanes-and-access-codes.md). An event may declare lanes,
-- each with its share of the admission rate; the implicit 'general' lane takes the rest and is never stored. Lanes
-- are part of the sale's frozen rules: changed only before the draw commitment is published and the sale opens.
create table event_lanes (
    event_id text             not null references events (event_id) on delete cascade,
    lane     text             not null check (lane ~ '^[a-z][a-z0-9-]{0,31}$' and lane <> 'general'),
    share    double precision not null check (share > 0 and share <= 1),
    position integer          not null,
    primary key (event_id, lane)
);

-- Ops issue codes per lane in batches. Only the SHA-256 of a code is kept (a code carries 120 random bits, so a plain
-- hash is enough and a read of this table redeems nothing). A code allows uses_allowed redemptions by distinct
-- visitors; uses is counted in the same statement that checks it, so the last use goes to exactly one redeemer.
create table access_codes (
    code_sha256  bytea       primary key check (length(code_sha256) = 32),
    event_id     text        not null,
    lane         text        not null,
    batch_id     text        not null check (batch_id ~ '^[0-9a-f]{16}$'),
    uses_allowed integer     not null check (uses_allowed between 1 and 100000),
    uses         integer     not null default 0 check (uses >= 0 and uses <= uses_allowed),
    expires_at   timestamptz,
    created_at   timestamptz not null default now(),
    created_by   text        not null,
    revoked_at   timestamptz,
    revoked_by   text,
    revoke_reason text,
    foreign key (event_id, lane) references event_lanes (event_id, lane) on delete cascade
);

create index access_codes_by_batch on access_codes (event_id, batch_id);

-- One row per visitor who redeemed a code: a repeat by the same visitor counts no second use.
create table access_code_redemptions (
    code_sha256 bytea       not null references access_codes (code_sha256) on delete cascade,
    visitor_id  text        not null,
    redeemed_at timestamptz not null default now(),
    primary key (code_sha256, visitor_id)
);
