-- Staff and partner passes (docs/operating/allow-rules-and-passes.md): ops issue them per event; a pass is exchanged
-- for a shopping session that skips the queue but counts against the ceiling. Only the secret's SHA-256 is stored.
create table passes (
    pass_id       text        primary key,
    event_id      text        not null references events (event_id) on delete cascade,
    secret_sha256 bytea       not null,
    holder        text        not null,
    max_uses      integer     not null check (max_uses >= 1),
    uses          integer     not null default 0 check (uses >= 0 and uses <= max_uses),
    expires_at    timestamptz not null,
    created_at    timestamptz not null,
    created_by    text        not null,
    revoked_at    timestamptz,
    revoked_by    text,
    revoke_reason text
);
create index passes_by_event on passes (event_id, created_at desc);

-- The pass a session was opened with (null: an offer claimed from the queue); renewal checks it is still valid.
alter table grants add column pass_id text;
create index grants_live_by_pass on grants (pass_id) where pass_id is not null and state in ('OFFERED', 'ACTIVE');
