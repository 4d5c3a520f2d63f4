-- A signal the coordinator answers with a 4xx (e.g. an event or session it does not know) is not retried forever
-- and does not hold up the signals behind it: it is marked refused and logged.
ALTER TABLE coordinator_outbox ADD COLUMN refused_at timestamptz;
ALTER TABLE coordinator_outbox ADD COLUMN refused_status integer;
DROP INDEX coordinator_outbox_pending;
CREATE INDEX coordinator_outbox_pending ON coordinator_outbox (created_at) WHERE delivered_at IS NULL AND refused_at IS NULL;
