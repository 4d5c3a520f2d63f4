-- Integration credentials (issue 27, item 6; docs/integration/shop-signals.md): a shop's own bearer for the shop
-- signals of one event (purchase completed, sold out, session release), created and revoked by ops. Only the SHA-256
-- of the random secret is kept, so a read of this table lets nobody sign in as the shop. At most two live (unrevoked)
-- per event, so a rotation is create new -> switch the shop -> revoke old; the count is checked under the event's row
-- lock. last_used_at is written at most once a minute, by signals that succeeded, so ops see when the old one stopped
-- being used.
create table integration_credentials (
    credential_id text        primary key check (credential_id ~ '^[0-9a-f]{16}$'),
    event_id      text        not null references events (event_id),
    secret_sha256 bytea       not null check (length(secret_sha256) = 32),
    label         text        check (length(label) between 1 and 64),
    created_at    timestamptz not null,
    created_by    text        not null,
    revoked_at    timestamptz,
    revoked_by    text,
    last_used_at  timestamptz
);

create index integration_credentials_live on integration_credentials (event_id) where revoked_at is null;
