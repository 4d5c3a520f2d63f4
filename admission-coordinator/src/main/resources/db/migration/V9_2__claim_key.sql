-- Claims are idempotent for the browser that made them (docs/design/architecture.md#identity): the claim that activates an
-- offer records the SHA-256 of the browser's Idempotency-Key, so a repeat that carries the same key within the offer's
-- window gets the same session and a fresh token although its first answer was lost. A copied visitor cookie alone has
-- no key, so it gets no token for an ACTIVE session. Null for claims without a key (API clients, rows made before).
alter table grants add column claim_key text;
