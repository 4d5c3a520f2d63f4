-- Seat categories with no seat left, as booking last reported them (PUT /internal/events/{e}/categories, issue 17):
-- the coordinator publishes their names to the page with every push of the event's state. One row per sold-out
-- category; position keeps booking's order. Replaced as a whole under the event's row lock.
create table sold_out_categories (
    event_id text    not null references events (event_id),
    position integer not null check (position >= 0),
    name     text    not null check (length(name) between 1 and 64),
    primary key (event_id, name),
    unique (event_id, position)
);

-- When the queue-service first accepted a push of this event's state: from then on its draw commitment and its sale
-- rules (presale ordering, expired-offer policy, identity scope, after purchase) are public, and a PATCH may no
-- longer change those rules (docs/design/sale-rules/frozen-rules-and-categories.md). Events that exist already were pushed
-- when they were created.
alter table events add column commitment_published_at timestamptz;
update events set commitment_published_at = created_at;
