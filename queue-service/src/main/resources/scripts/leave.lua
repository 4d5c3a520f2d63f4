-- Leave: WAITING -> LEFT. Idempotent: an entry already LEFT answers LEFT again.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket, then 'cnt', 'w' and
-- 'lane', 'lq' and the 'e:' bucket of the entry (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] visitor id, ARGV[3] account identity or ''
-- State letters (WAITING, LEFT) are locals generated from the Java EntryState when the script is loaded.
if redis.call('EXISTS', KEYS[1]) == 0 then return {'NO_EVENT'} end
local scope = redis.call('HGET', KEYS[1], 'scope')
local idKey, identity = KEYS[2], ARGV[2]
if scope == 'ACCOUNT' and ARGV[3] ~= '' then idKey, identity = KEYS[3], ARGV[3] end
local existing = redis.call('HGET', idKey, identity)
if not existing then return {'NO_ENTRY'} end
local seq = tonumber(existing)
local ekey, cnt, w, lanes, lq = B('e:', seq), K('cnt'), K('w'), K('lane'), K('lq')
local m = undeclared()
if m then return m end
local field = seq % 128
local rec = redis.call('HGET', ekey, field)
local state, key, rest = string.match(rec, '^(%u)|(%d+)|(.*)$')
if state == LEFT then return {'LEFT', existing} end
if state ~= WAITING then return {'STATE', existing, state} end
redis.call('HSET', ekey, field, LEFT .. '|' .. key .. '|' .. rest)
key = tonumber(key)
if key > 0 then
  redis.call('SETBIT', w, key, 0)
  -- a pre-sale entry (no order key yet) keeps its lane: its rejoin gets the same entry back
  local lane = redis.call('HGET', lanes, seq)
  if lane then
    redis.call('ZREM', lq, lane_member(lane, key, seq))
    redis.call('HDEL', lanes, seq)
  end
end
redis.call('HINCRBY', cnt, 'waiting', -1)
redis.call('HINCRBY', cnt, 'left', 1)
return {'LEFT', existing}
