-- Allow rules (docs/operating/allow-rules-and-passes.md): path patterns inside the event's protect_paths that are
-- never queued. Empty: every protected path needs admission, as before.
alter table events add column protect_allow text[] not null default '{}';
