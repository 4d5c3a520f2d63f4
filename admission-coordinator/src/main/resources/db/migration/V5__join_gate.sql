-- An event's join gate (docs/design/abuse/join-ceiling-and-redis-memory.md): the queue-service's per-event ceiling on new
-- entries per second and the proof-of-work difficulty the gateway asks of a first join. 0 is off for both, so every
-- existing event keeps joining as before.
alter table events
    add column max_joins_per_second double precision not null default 0
        check (max_joins_per_second >= 0 and max_joins_per_second <= 1000000),
    add column proof_of_work_difficulty bigint not null default 0
        check (proof_of_work_difficulty >= 0 and proof_of_work_difficulty <= 10000000);
