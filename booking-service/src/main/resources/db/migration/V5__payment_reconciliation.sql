-- Reconciliation of payment attempts (waitroom.booking.payments.reconcile-after): an attempt still PENDING after the
-- bound is asked about again, and again each bound after that. reconciled_at is when it was last asked (database
-- clock): the claim is one conditional UPDATE over rows taken FOR UPDATE SKIP LOCKED, so of two replicas sweeping at
-- once only one asks about an attempt per bound. reconciliations counts the asks.
ALTER TABLE payment_attempts ADD COLUMN reconciled_at timestamptz;
ALTER TABLE payment_attempts ADD COLUMN reconciliations integer NOT NULL DEFAULT 0;
CREATE INDEX payment_attempts_pending ON payment_attempts (created_at) WHERE state = 'PENDING';
