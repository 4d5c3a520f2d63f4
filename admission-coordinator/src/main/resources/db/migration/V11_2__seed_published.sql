-- In regions the seed is published only once every region's queue has left SCHEDULED and drawn (docs/operating/regions.md#the-draw):
-- the first region's draw no longer publishes it while another region's queue still takes pre-sale entries.
-- `seed_revealed_at` keeps meaning "the draw has run" (offers may start, DrawState DRAWN); `seed_published_at` is when
-- the seed became public. Events drawn before this migration published it at their draw.
alter table events add column seed_published_at timestamptz;
update events set seed_published_at = seed_revealed_at where seed_revealed_at is not null;

-- Each gate's queue whose pre-sale draw has completed: the central gate's (region '') or a named region's.
create table queue_draws (
    event_id text        not null references events (event_id),
    region   text        not null check (length(region) <= 32),
    drawn_at timestamptz not null default now(),
    primary key (event_id, region)
);
