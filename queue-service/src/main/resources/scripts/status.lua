-- A visitor's status; refreshes liveness at most once per interval, never touches order.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket, then 'cnt', 'w', 'of'
-- and the 'e:' and 's:' buckets of the entry (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] visitor id, ARGV[3] account identity or '', ARGV[4] now (epoch seconds),
-- ARGV[5] liveness interval (seconds)
local ev = redis.call('HMGET', KEYS[1], 'phase', 'scope')
if not ev[1] then return {'NO_EVENT'} end
local idKey, identity = KEYS[2], ARGV[2]
if ev[2] == 'ACCOUNT' and ARGV[3] ~= '' then idKey, identity = KEYS[3], ARGV[3] end
local existing = redis.call('HGET', idKey, identity)
if not existing then return {'NO_ENTRY'} end
status_keys(existing)
local m = undeclared()
if m then return m end
return visitor_status(existing, ARGV[4], ARGV[5])
