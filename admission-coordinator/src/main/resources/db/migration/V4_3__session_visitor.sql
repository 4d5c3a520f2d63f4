-- The visitor id rotates at claim (docs/design/architecture.md#identity): the gateway mints a new id for the shopping
-- session, so a visitor cookie copied while waiting cannot shop, renew or leave. `visitor` stays the queue's identity
-- (the offer was made to it, and at most one live grant per queue identity holds); `session_visitor` is the identity
-- the session and its tokens are bound to, set once by the claim.
alter table grants add column session_visitor text;
update grants set session_visitor = visitor where session_id is not null;
create index grants_by_session_visitor on grants (event_id, session_visitor) where state = 'ACTIVE';
