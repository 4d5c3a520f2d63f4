-- The offer pace (docs/design/estimates.md) counts an event's offers of the last five minutes on every push of its state.
create index grants_by_offered_at on grants (event_id, offered_at);
