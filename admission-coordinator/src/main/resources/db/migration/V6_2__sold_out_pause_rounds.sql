-- Sold out, pause and sale rounds (docs/design/sale-rules/sold-out-pause-rounds.md).
-- paused_at: when the event entered PAUSED (the coordinator's clock); on leaving PAUSED every outstanding offer's
-- deadline moves on by the time since, so no place is lost to a pause. Null whenever the event is not paused.
alter table events add column paused_at timestamptz;

-- The sale generation (round) a grant was offered in: a new round ends the sessions of the earlier ones, and a token
-- carries the generation of its grant.
alter table grants add column sale_generation bigint not null default 1;

-- SOLD_OUT: the offer was withdrawn in the step that declared the event sold out. NEW_ROUND: a session of an earlier
-- sale generation, ended when ops opened a new round.
alter table grants drop constraint grants_release_reason_check;
alter table grants add constraint grants_release_reason_check
    check (release_reason in ('OFFER_EXPIRED', 'SESSION_EXPIRED', 'LEFT', 'PURCHASED', 'WITHDRAWN', 'SOLD_OUT',
                              'NEW_ROUND'));
