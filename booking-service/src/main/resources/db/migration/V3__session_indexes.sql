-- The per-session seat limit and order lookups go by session; sold seats are counted by order.
CREATE INDEX holds_by_session ON holds (event_id, session_id);
CREATE INDEX orders_by_session ON orders (event_id, session_id);
CREATE INDEX sold_seats_by_order ON sold_seats (order_id);
