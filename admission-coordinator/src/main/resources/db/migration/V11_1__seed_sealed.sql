-- The draw seed encrypted at rest like the signing keys (issue #28, finding 8; docs/design/security/keys.md#the-draw-seed):
-- `sealed_seed` holds the seed sealed with AES-256-GCM under the key-encryption key, the event id bound as associated
-- data, so a dump taken before the sale does not reveal the draw order. SQL cannot seal (the key is in the
-- coordinator's environment, never in the database): `seed`, the plaintext form, is sealed and emptied by the first
-- coordinator that starts after this migration, and a row holds one form or the other.
alter table events add column sealed_seed text;
alter table events alter column seed drop not null;
alter table events add constraint events_seed_one_form check (num_nonnulls(seed, sealed_seed) = 1);
