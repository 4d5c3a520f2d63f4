-- Signing keys encrypted at rest (docs/SECURITY-NOTES/keys.md): `sealed_ring` holds the key ring's private JSON
-- sealed with AES-256-GCM under the key-encryption key from the environment. `ring_json`, the plaintext form, is
-- sealed and emptied by the first coordinator that starts with a key-encryption key; a row holds one form or the other.
alter table signing_keys add column sealed_ring text;
alter table signing_keys alter column ring_json drop not null;
alter table signing_keys add constraint signing_keys_one_form check (num_nonnulls(ring_json, sealed_ring) = 1);

-- A retired key stays published while a session that may hold a token it signed could still be valid: the retention
-- check looks for sessions activated before the key retired whose absolute expiry is still ahead.
create index grants_by_absolute_expiry on grants (absolute_expires_at) where absolute_expires_at is not null;
