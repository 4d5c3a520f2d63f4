-- Places a visitor's WAITING entry in a lane (an access code redeemed: docs/operating/lanes-and-access-codes.md).
-- The entry keeps its order key: within the lane it stands by its original join order (or its drawn place), so a
-- late redemption never jumps ahead of earlier members of the lane. An entry of the pre-sale group not drawn yet
-- (order key 0) is only marked; draw.lua places it in the lane. Idempotent: a second move to the same lane changes
-- nothing.
-- KEYS[1] event hash, KEYS[2] visitor's identity bucket, KEYS[3] account's identity bucket, then 'w', 'lane', 'lq'
-- and the 'e:' bucket of the entry (lib/declared_keys.lua)
-- ARGV[1] key prefix, ARGV[2] visitor id, ARGV[3] account identity or '', ARGV[4] lane name ('general' leaves a lane)
-- Answers NO_EVENT, NO_ENTRY, STATE seq letter (the entry is not WAITING), or OK seq letter lane moved ('1'|'0').
-- 'lane' maps entry sequence -> lane; 'lq' holds every lane member that has an order key (lib/declared_keys.lua).
local ev = redis.call('HMGET', KEYS[1], 'phase', 'scope')
if not ev[1] then return {'NO_EVENT'} end
local idKey, identity = KEYS[2], ARGV[2]
if ev[2] == 'ACCOUNT' and ARGV[3] ~= '' then idKey, identity = KEYS[3], ARGV[3] end
local existing = redis.call('HGET', idKey, identity)
if not existing then return {'NO_ENTRY'} end
local seq = tonumber(existing)
local ekey, w, lanes, lq = B('e:', seq), K('w'), K('lane'), K('lq')
local m = undeclared()
if m then return m end
local rec = redis.call('HGET', ekey, seq % 128)
local state, key = string.match(rec, '^(%u)|(%d+)|')
if state ~= WAITING then return {'STATE', existing, state} end
local target = ARGV[4]
local current = redis.call('HGET', lanes, seq) or 'general'
if current == target then return {'OK', existing, state, target, '0'} end
key = tonumber(key)
if key > 0 then
  if current == 'general' then
    redis.call('SETBIT', w, key, 0)
  else
    redis.call('ZREM', lq, lane_member(current, key, seq))
  end
  if target == 'general' then
    redis.call('SETBIT', w, key, 1)
  else
    redis.call('ZADD', lq, 0, lane_member(target, key, seq))
  end
end
if target == 'general' then
  redis.call('HDEL', lanes, seq)
else
  redis.call('HSET', lanes, seq, target)
end
return {'OK', existing, state, target, '1'}
