-- The entry an account holds in an ACCOUNT-scoped event and the visitor id it is bound to (docs/integration/accounts.md). Read
-- before a signed-in join, so that another browser of the account finds the place without rebinding it (an offer is
-- made to the bound visitor id), and answered to the gateway so that a claim from another browser of the same account
-- is made under that id.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket, then the 'e:' bucket of the
-- entry (lib/declared_keys.lua). ARGV[1] key prefix, ARGV[2] visitor id, ARGV[3] account identity.
-- Answers NONE, or OK, the entry's sequence, its state letter and its visitor id.
local existing = redis.call('HGET', KEYS[3], ARGV[3])
if not existing then return {'NONE'} end
local ekey = B('e:', existing)
local m = undeclared()
if m then return m end
local rec = redis.call('HGET', ekey, tonumber(existing) % 128)
if not rec then return {'NONE'} end
local state, visitor = string.match(rec, '^(%u)|%d+|([^|]*)|')
return {'OK', existing, state, visitor}
