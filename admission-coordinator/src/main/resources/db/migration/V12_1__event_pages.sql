-- The seller's page (issue 30, item 1; docs/operating/the-sellers-page.md): one row per event that has its own
-- branding, texts or template, validated by the coordinator before it is written. version increases with every PUT
-- (one conditional upsert, so concurrent PUTs get distinct versions and the last one wins); the gateway renders an
-- event's page again only when the version it holds differs. Every PUT is audited in mode_changes (kind CONFIG).
create table event_pages (
    event_id    text        primary key references events (event_id) on delete cascade,
    version     bigint      not null check (version > 0),
    brand_name  text        check (length(brand_name) between 1 and 80),
    logo_url    text        check (length(logo_url) between 1 and 2048),
    logo_alt    text        check (length(logo_alt) <= 200),
    colours     jsonb       not null default '{}'::jsonb,
    texts       jsonb       not null default '{}'::jsonb,
    template    text        check (octet_length(template) <= 8192),
    image_hosts text[]      not null default '{}',
    updated_at  timestamptz not null default now(),
    updated_by  text        not null
);
