-- Booking owns inventory. The rule "a seat has at most one live hold or sale" lives here:
-- seats.state is changed only by conditional UPDATEs that name the state they expect, the CHECK
-- below keeps each state's columns consistent, and sold_seats refuses a second sale of a seat.

CREATE TABLE seat_categories (
    event_id     text        NOT NULL,
    name         text        NOT NULL,
    price_cents  bigint      NOT NULL CHECK (price_cents >= 0),
    seat_count   integer     NOT NULL CHECK (seat_count >= 0),
    updated_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, name)
);

CREATE TABLE holds (
    hold_id     uuid        PRIMARY KEY,
    event_id    text        NOT NULL,
    session_id  text        NOT NULL,
    visitor     text        NOT NULL,
    state       text        NOT NULL CHECK (state IN ('ACTIVE', 'RELEASED', 'EXPIRED', 'CONVERTED')),
    created_at  timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    ended_at    timestamptz
);
CREATE INDEX holds_active_by_deadline ON holds (expires_at) WHERE state = 'ACTIVE';

CREATE TABLE seats (
    event_id     text        NOT NULL,
    seat_id      text        NOT NULL,
    category     text        NOT NULL,
    state        text        NOT NULL CHECK (state IN ('AVAILABLE', 'HELD', 'SOLD')),
    hold_id      uuid        REFERENCES holds (hold_id),
    held_until   timestamptz,
    order_id     uuid,
    PRIMARY KEY (event_id, seat_id),
    FOREIGN KEY (event_id, category) REFERENCES seat_categories (event_id, name),
    CONSTRAINT seat_state_columns CHECK (
        (state = 'AVAILABLE' AND hold_id IS NULL AND held_until IS NULL AND order_id IS NULL)
        OR (state = 'HELD' AND hold_id IS NOT NULL AND held_until IS NOT NULL AND order_id IS NULL)
        OR (state = 'SOLD' AND hold_id IS NULL AND held_until IS NULL AND order_id IS NOT NULL))
);
CREATE INDEX seats_by_event_state ON seats (event_id, state, category);
CREATE INDEX seats_by_hold ON seats (hold_id) WHERE hold_id IS NOT NULL;

CREATE TABLE hold_seats (
    hold_id  uuid NOT NULL REFERENCES holds (hold_id),
    event_id text NOT NULL,
    seat_id  text NOT NULL,
    PRIMARY KEY (hold_id, seat_id),
    FOREIGN KEY (event_id, seat_id) REFERENCES seats (event_id, seat_id)
);

CREATE TABLE orders (
    order_id        uuid        PRIMARY KEY,
    event_id        text        NOT NULL,
    hold_id         uuid        NOT NULL REFERENCES holds (hold_id),
    session_id      text        NOT NULL,
    visitor         text        NOT NULL,
    idempotency_key text,
    state           text        NOT NULL CHECK (state IN ('PENDING_PAYMENT', 'PAID', 'PAYMENT_FAILED', 'VOIDED')),
    amount_cents    bigint      NOT NULL CHECK (amount_cents >= 0),
    created_at      timestamptz NOT NULL DEFAULT now(),
    updated_at      timestamptz NOT NULL DEFAULT now()
);
-- One order under way (or paid) per hold; a failed payment lets the shopper try again.
CREATE UNIQUE INDEX orders_one_live_per_hold ON orders (hold_id) WHERE state IN ('PENDING_PAYMENT', 'PAID');
CREATE UNIQUE INDEX orders_idempotency ON orders (event_id, session_id, idempotency_key) WHERE idempotency_key IS NOT NULL;

CREATE TABLE sold_seats (
    event_id text        NOT NULL,
    seat_id  text        NOT NULL,
    order_id uuid        NOT NULL REFERENCES orders (order_id),
    sold_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (event_id, seat_id),
    FOREIGN KEY (event_id, seat_id) REFERENCES seats (event_id, seat_id)
);

CREATE TABLE payment_attempts (
    attempt_id   uuid        PRIMARY KEY,
    order_id     uuid        NOT NULL REFERENCES orders (order_id),
    state        text        NOT NULL CHECK (state IN ('PENDING', 'SUCCEEDED', 'FAILED')),
    amount_cents bigint      NOT NULL CHECK (amount_cents >= 0),
    created_at   timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz
);
CREATE INDEX payment_attempts_by_order ON payment_attempts (order_id);

CREATE TABLE refunds (
    refund_id    uuid        PRIMARY KEY,
    order_id     uuid        NOT NULL UNIQUE REFERENCES orders (order_id),
    attempt_id   uuid        NOT NULL REFERENCES payment_attempts (attempt_id),
    amount_cents bigint      NOT NULL,
    reason       text        NOT NULL,
    created_at   timestamptz NOT NULL DEFAULT now()
);

-- Provider webhook ids already applied: a replay finds its id here and changes nothing.
CREATE TABLE processed_webhooks (
    webhook_id  text        PRIMARY KEY,
    attempt_id  uuid        NOT NULL,
    outcome     text        NOT NULL,
    effect      text        NOT NULL,
    received_at timestamptz NOT NULL DEFAULT now()
);

-- Signals owed to the coordinator, written in the transaction that caused them, delivered (and
-- retried) by the signal ticker.
CREATE TABLE coordinator_outbox (
    signal_id    uuid        PRIMARY KEY,
    kind         text        NOT NULL CHECK (kind IN ('SOLD_OUT', 'PURCHASE_COMPLETED')),
    event_id     text        NOT NULL,
    session_id   text,
    order_id     uuid,
    dedup_key    text        NOT NULL UNIQUE,
    created_at   timestamptz NOT NULL DEFAULT now(),
    attempts     integer     NOT NULL DEFAULT 0,
    delivered_at timestamptz
);
CREATE INDEX coordinator_outbox_pending ON coordinator_outbox (created_at) WHERE delivered_at IS NULL;
