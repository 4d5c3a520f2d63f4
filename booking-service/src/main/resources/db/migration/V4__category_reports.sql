-- Seat categories reported to the coordinator (docs/design/sale-rules/seat-categories.md).
-- seat_categories.sold_out: no seat of the category can be taken now (every seat sold or held by a hold whose
-- deadline has not passed). It is what the coordinator has been or is about to be told: a write that flips it
-- re-arms the event's CATEGORIES signal in the same transaction. Left false for existing rows on purpose: the first
-- sweep after this migration flips the sold-out ones and reports them.
ALTER TABLE seat_categories ADD COLUMN sold_out boolean NOT NULL DEFAULT false;

-- CATEGORIES is one row per event (dedup key 'CATEGORIES:<event>'), re-armed by every change it must report:
-- revision counts the re-arms, and a delivery is marked only if no re-arm came after the one it read, so a change
-- made while a report is in flight is sent again rather than lost. Other kinds keep revision 0.
ALTER TABLE coordinator_outbox DROP CONSTRAINT coordinator_outbox_kind_check;
ALTER TABLE coordinator_outbox ADD CONSTRAINT coordinator_outbox_kind_check
    CHECK (kind IN ('SOLD_OUT', 'PURCHASE_COMPLETED', 'CATEGORIES'));
ALTER TABLE coordinator_outbox ADD COLUMN revision integer NOT NULL DEFAULT 0;
